"""The server's dashboard pages as a browser reaches them (scripts/dashboard-screenshots).

argv: base URL, a user's API token, an export.zip to import for them, the folder to write
server-{login,consent,dashboard,denied}.html into. Imports the export through
POST /v1/imports, signs in through the login form (CSRF token and cookies as a browser
keeps them), allows every kind of data on the consent page, saves the dashboard, then
denies sleep and saves the dashboard again.
"""
import http.cookiejar
import json
import re
import sys
import time
import urllib.parse
import urllib.request

base, token, export, out = sys.argv[1:5]


def fetch(opener, path, form=None, headers=None, data=None):
    body = data if data is not None else (urllib.parse.urlencode(form).encode() if form is not None else None)
    request = urllib.request.Request(base + path, data=body, headers=headers or {})
    if form is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
    with opener.open(request, timeout=600) as response:
        return response.status, response.geturl(), response.read().decode()


def csrf(page):
    match = re.search(r'name="csrf" value="([^"]+)"', page)
    assert match, "no CSRF token on the page"
    return match.group(1)


api = urllib.request.build_opener()
auth = {"Authorization": f"Bearer {token}"}
started = time.time()
_, _, job = fetch(
    api, "/v1/imports?tz=America/Los_Angeles", headers={**auth, "Content-Type": "application/zip"},
    data=open(export, "rb").read())
job_id = json.loads(job)["id"]
while True:
    _, _, state = fetch(api, f"/v1/imports/{job_id}", headers=auth)
    state = json.loads(state)
    if state["state"] in ("succeeded", "failed"):
        break
    time.sleep(1)
assert state["state"] == "succeeded", f"the import failed: {state.get('error')}"
print(f"dashboard-server-pages: import {state['state']} in {time.time() - started:.1f} s")

browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
_, _, login = fetch(browser, "/login")
open(f"{out}/server-login.html", "w").write(login)
status, url, consent = fetch(browser, "/login", form={"token": token, "csrf": csrf(login)})
assert url.endswith("/consent"), f"signing in led to {url}"
open(f"{out}/server-consent.html", "w").write(consent)
kinds = re.findall(r'<input type="radio" name="([a-z]+)" value="allow"', consent)
assert len(kinds) == 8, f"{len(kinds)} kinds on the consent page"
started = time.time()
status, url, page = fetch(browser, "/consent", form={**{kind: "allow" for kind in kinds}, "csrf": csrf(consent)})
assert url.endswith("/dashboard") and status == 200, f"saving consent led to {url} ({status})"
print(f"dashboard-server-pages: consent saved, dashboard in {time.time() - started:.2f} s")
open(f"{out}/server-dashboard.html", "w").write(page)
_, _, consent = fetch(browser, "/consent")
_, url, page = fetch(browser, "/consent", form={"sleep": "deny", "csrf": csrf(consent)})
open(f"{out}/server-denied.html", "w").write(page)
print(f"dashboard-server-pages: {len(kinds)} kinds offered; pages written to {out}")
