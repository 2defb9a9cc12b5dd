"""Issue 36 §1 end to end: the Python `mcp` client connects to a live `healthpipe serve` with OAuth 2.1.

Run by scripts/mcp-check: `mcp-oauth-check.py BASE OWNER_TOKEN`. The client discovers the server (RFC 9728,
RFC 8414), registers itself (RFC 7591) and runs the code flow with PKCE; the person — a browser session here,
signed in with their own token — allows steps only on the consent page. Then: the tools read steps and nothing
else; the refresh token rotates and a reused one ends the connection; a token for another resource, a wrong
verifier and a replayed code are refused; revoking the app on the dashboard's token page ends its tokens.
Prints a summary; exits 1 with what failed. Never prints a token or a health value.
"""
import asyncio
import base64
import hashlib
import html
import re
import secrets
import sys
import urllib.parse

import httpx2
from mcp import ClientSession
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

base, owner = sys.argv[1:3]
REDIRECT = "http://127.0.0.1:33418/callback"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


class Memory(TokenStorage):
    def __init__(self):
        self.tokens, self.client = None, None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


def csrf(page):
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def hidden(page):
    """The hidden fields of a page's form, unescaped as a browser reads them."""
    found = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)
    return {html.unescape(name): html.unescape(value) for name, value in found}


class Person:
    """The person in their browser: signs in with their own token, answers the consent page."""

    def __init__(self):
        self.browser = httpx2.AsyncClient(base_url=base, follow_redirects=False, timeout=30)
        self.location = None

    async def authorize(self, url, kinds=("steps",)):
        answer = await self.browser.get(url)
        if answer.status_code == 303 and answer.headers["location"].startswith("/login"):
            login = await self.browser.get(answer.headers["location"])
            fields = {"token": owner, "csrf": csrf(login.text), **hidden(login.text)}
            signed_in = await self.browser.post("/login", data=fields)
            check(signed_in.status_code == 303 and signed_in.headers["location"].startswith("/oauth/authorize?"),
                  "sign-in did not come back to the authorization request")
            answer = await self.browser.get(signed_in.headers["location"])
        check(answer.status_code == 200 and "asks to read your health data" in answer.text, "no consent page")
        check("form-action 'self' http://127.0.0.1:33418" in answer.headers.get("content-security-policy", ""),
              "the consent page's CSP does not let its answer go back to the app")
        fields = {**hidden(answer.text), "decision": "allow", **{f"read_{kind}": "on" for kind in kinds}}
        decided = await self.browser.post("/oauth/authorize", data=fields)
        check(decided.status_code == 303, f"the consent answer is {decided.status_code}")
        self.location = decided.headers["location"]
        return self.location

    async def callback(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.location).query)
        return AuthorizationCodeResult(code=query["code"][0], state=query["state"][0], iss=query.get("iss", [None])[0])


def pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


async def mcp_status(http, token, method="tools/list", params=None):
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
    answer = await http.post("/mcp", json=body, headers={
        "Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18"})
    return answer.status_code


async def main():
    person = Person()
    storage = Memory()
    provider = OAuthClientProvider(
        server_url=base + "/mcp",
        client_metadata=OAuthClientMetadata(client_name="mcp-check", redirect_uris=[REDIRECT],
                                            grant_types=["authorization_code", "refresh_token"], response_types=["code"]),
        storage=storage, redirect_handler=person.authorize, callback_handler=person.callback)
    async with httpx2.AsyncClient(auth=provider, timeout=60) as client:
        async with streamable_http_client(base + "/mcp", http_client=client, terminate_on_close=False) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                check(len(tools) == 14, f"oauth: {len(tools)} tools")
                result = await session.call_tool("get_daily_metrics", {"from": "2024-06-01", "to": "2024-06-07"})
                # mcp 2 names them in snake case, mcp 1 in camel case.
                failed = getattr(result, "is_error", getattr(result, "isError", False))
                content = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None) or {}
                check(not failed and content.get("days"), "oauth: get_daily_metrics read nothing")
                withheld = content.get("coverage", {}).get("withheld", [])
                check("sleep" in withheld and "steps" not in withheld, "oauth: the withheld kinds are wrong")
    client_id = storage.client.client_id
    first = storage.tokens
    check(first.scope == "read:steps", f"oauth: scope {first.scope!r}")
    async with httpx2.AsyncClient(base_url=base, timeout=30) as http:
        # Bound to /mcp, and steps only.
        check(await mcp_status(http, first.access_token, "tools/call",
                               {"name": "get_sleep", "arguments": {"date": "2024-06-01"}}) == 403, "oauth: sleep was read")
        v1 = await http.get("/v1/daily-metrics?from=2024-06-01&to=2024-06-07",
                            headers={"Authorization": f"Bearer {first.access_token}"})
        check(v1.status_code == 401, "oauth: an MCP access token read /v1")

        def token(**form):
            return http.post("/oauth/token", data={"client_id": client_id, **form})
        rotated = await token(grant_type="refresh_token", refresh_token=first.refresh_token)
        check(rotated.status_code == 200, f"oauth: refresh gave {rotated.status_code}")
        second = rotated.json()
        check(second["refresh_token"] != first.refresh_token, "oauth: the refresh token was not rotated")
        check(await mcp_status(http, second["access_token"]) == 200, "oauth: the refreshed token does not work")
        reused = await token(grant_type="refresh_token", refresh_token=first.refresh_token)
        check(reused.status_code == 400 and reused.json()["error"] == "invalid_grant", "oauth: a reused refresh token passed")
        check(await mcp_status(http, second["access_token"]) == 401, "oauth: reuse did not end the connection")

        # A second connection by hand: the refusals of the token endpoint.
        verifier, challenge = pkce()
        query = urllib.parse.urlencode({
            "response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "state": "s2",
            "code_challenge": challenge, "code_challenge_method": "S256", "resource": base + "/mcp"})
        location = await person.authorize("/oauth/authorize?" + query)
        code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["code"][0]
        redeem = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT}
        other = await token(**redeem, code_verifier=verifier, resource="https://other.example/mcp")
        check(other.status_code == 400 and other.json()["error"] == "invalid_target", "oauth: another resource passed")
        wrong = await token(**redeem, code_verifier=pkce()[0])
        check(wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant", "oauth: a wrong verifier passed")
        good = await token(**redeem, code_verifier=verifier)
        check(good.status_code == 200, f"oauth: the code gave {good.status_code}")
        access = good.json()["access_token"]
        check(await mcp_status(http, access) == 200, "oauth: the second connection does not work")
        replayed = await token(**redeem, code_verifier=verifier)
        check(replayed.status_code == 400 and replayed.json()["error"] == "invalid_grant", "oauth: a replayed code passed")
        check(await mcp_status(http, access) == 401, "oauth: a replayed code did not revoke what it gave")

        # A third connection, revoked by the person on the dashboard's token page.
        verifier, challenge = pkce()
        query = urllib.parse.urlencode({
            "response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "state": "s3",
            "code_challenge": challenge, "code_challenge_method": "S256"})
        location = await person.authorize("/oauth/authorize?" + query)
        code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["code"][0]
        third = await token(grant_type="authorization_code", code=code, redirect_uri=REDIRECT, code_verifier=verifier)
        access = third.json()["access_token"]
        check(await mcp_status(http, access) == 200, "oauth: the third connection does not work")
        page = (await person.browser.get("/tokens")).text
        live = re.findall(r'name="name" value="(mcp-mcp-check-[0-9a-f]{8})"', page)
        check(len(live) == 1, f"oauth: {len(live)} live connections listed")
        revoked = await person.browser.post("/tokens/revoke", data={"name": live[0], "csrf": csrf(page)})
        check(revoked.status_code == 303, "oauth: revoking on the token page failed")
        check(await mcp_status(http, access) == 401, "oauth: a connection revoked on the dashboard still reads")
        gone = await token(grant_type="refresh_token", refresh_token=third.json()["refresh_token"])
        check(gone.status_code == 400, "oauth: a revoked connection refreshed")
    await person.browser.aclose()
    if failures:
        print("mcp-oauth-check FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("mcp-oauth-check: discovery, registration, PKCE, consent by the person's session, rotation, reuse, "
          "another resource, a wrong verifier, a replayed code and revocation on the dashboard all as specified")


asyncio.run(main())
