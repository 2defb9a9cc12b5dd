"""The coach's MCP server end to end, with the Python `mcp` package (scripts/mcp-check).

argv: healthpipe binary, store (a generated year), the year's first and last day, the
server's base URL, alice's owner token, the coach's scoped token of alice's data (--kinds
steps, steps allowed by alice), alice's first and last stored day on the server.

Over stdio (`healthpipe mcp`): lists tools, resources, templates and prompts; calls every
tool; checks that the numbers equal `healthpipe days`, `sleep`, `readiness` and `snapshot`
for the same store; every answer under the cap (the largest is printed); bad arguments
come back as tool errors and the server keeps answering. Over HTTP (`POST /mcp` on
`healthpipe serve`): the same tools for alice equal `/v1/daily-metrics`, `/v1/sleep` and
`/v1/readiness`; no token is a 401; the coach's token gets 403 for sleep and its daily
metrics without sleep.

Typed answers (issue 36 §2): every listed tool has an `outputSchema` (a valid draft 2020-12
schema of an object) and read-only annotations (`log_subjective` aside); every answer's
structured content, over stdio and over HTTP, validates against its tool's schema with
`jsonschema.Draft202012Validator` (the `mcp` client checks it too, and raises on a mismatch).
"""
import asyncio
import datetime
import json
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

import httpx2
from scipy import stats
from jsonschema import Draft202012Validator
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

healthpipe, store, first, last, base, alice, coach, server_first, server_last = sys.argv[1:10]
ZONE = "America/Los_Angeles"
CAP = 48 * 1024
failures = []
sizes = {}
# Each tool's outputSchema as tools/list gives it (stdio, then HTTP).
schemas = {}


def check(condition, message):
    if not condition:
        failures.append(message)


def cli(*args):
    output = subprocess.run([healthpipe, *args, "--db", store, "--home-tz", ZONE, "--format", "json"],
                            check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def schema_errors(name, content):
    """Where `content` breaks the outputSchema tool `name` lists: paths, keywords and key names, never values."""
    schema = schemas.get(name)
    if schema is None:
        return [f"{name} lists no outputSchema"]
    errors = sorted(Draft202012Validator(schema).iter_errors(content), key=lambda error: list(error.absolute_path))
    # The messages of required and additionalProperties name keys; the others would quote the value.
    return ["/".join(map(str, error.absolute_path)) + ": "
            + (error.message if error.validator in ("required", "additionalProperties")
               else f"{error.validator} {json.dumps(error.validator_value)[:80]}")
            for error in errors]


def structured(result, tool):
    check(not result.is_error, f"{tool}: unexpected error {result.content[0].text if result.content else ''}")
    size = len(json.dumps(result.structured_content))
    sizes[tool] = max(sizes.get(tool, 0), size)
    check(size <= CAP, f"{tool}: answer of {size} bytes, over the cap")
    check(result.content and result.content[0].text, f"{tool}: no text summary")
    if not result.is_error:
        errors = schema_errors(tool.removeprefix("http "), result.structured_content)
        check(not errors, f"{tool}: the structured content does not match its outputSchema: {'; '.join(errors[:5])}")
    return result.structured_content


def check_listing(tools, label):
    """Every tool lists a valid draft 2020-12 outputSchema of an object and its annotations: read-only,
    idempotent and closed-world, but get_coach_context, which asks Open-Meteo for the weather."""
    for tool in tools:
        schema = tool.output_schema
        check(schema is not None and schema.get("type") == "object", f"{label} {tool.name}: no object outputSchema")
        try:
            Draft202012Validator.check_schema(schema or {})
        except Exception as error:  # jsonschema.SchemaError: say which tool, and go on
            failures.append(f"{label} {tool.name}: the outputSchema is not a draft 2020-12 schema: {str(error)[:120]}")
        hints = tool.annotations
        check(hints is not None and hints.read_only_hint is True and hints.idempotent_hint is True
              and hints.open_world_hint is (tool.name == "get_coach_context"), f"{label} {tool.name}: annotations {hints}")
        schemas[tool.name] = schema


def close(a, b):
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) < 1e-9)


def hours(seconds):
    """Seconds as hours; None (a night of only time in bed: asleep unknown) stays None."""
    return None if seconds is None else seconds / 3600


async def pages(session, tool, arguments, key):
    rows, arguments = [], dict(arguments)
    while True:
        answer = structured(await session.call_tool(tool, arguments), tool)
        rows += answer[key]
        if "next_from" not in answer:
            return rows
        arguments["from"] = answer["next_from"]


def compare_days(tool_days, reference, label):
    by_date = {day["local_date"]: day for day in tool_days}
    check(len(by_date) == len(reference), f"{label}: {len(by_date)} days, expected {len(reference)}")
    fields = {"steps": "steps_normalized", "active_energy_kcal": "active_energy_kcal", "sleep_hours": "sleep_hours",
              "resting_hr_bpm": "resting_hr_bpm", "hrv_ms": "hrv_ms"}
    for day in reference:
        mine = by_date.get(day["local_date"], {})
        for field, theirs in fields.items():
            if not close(mine.get(field), day.get(theirs)):
                failures.append(f"{label} {day['local_date']} {field}: {mine.get(field)} != {day.get(theirs)}")
                return


async def stdio_part():
    parameters = StdioServerParameters(command=healthpipe, args=["mcp", "--db", store, "--home-tz", ZONE])
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        expected = {"get_coach_context", "get_daily_metrics", "get_sleep", "get_readiness", "get_workouts", "get_trends",
                    "compare_periods", "list_data_types", "query_samples", "get_workout_details", "get_workout_route",
                    "get_training_load", "correlate_metrics", "compare_around_event"}
        check(set(tools) == expected, f"tools: {sorted(tools)}")
        check_listing(tools.values(), "stdio")
        check(all(tool.input_schema.get("type") == "object" for tool in tools.values()), "a tool has no object schema")
        resources = [r.uri for r in (await session.list_resources()).resources]
        templates = [t.uri_template for t in (await session.list_resource_templates()).resource_templates]
        prompts = [p.name for p in (await session.list_prompts()).prompts]
        check(sorted(map(str, resources)) == ["health://coach/context", "health://days/last-7", "health://readiness/today"],
              f"resources: {resources}")
        check(templates == ["health://days/{from}/{to}"], f"templates: {templates}")
        check(sorted(prompts) == ["doctor-visit-summary", "morning-check-in", "sleep-deep-dive", "training-load-check",
                                  "travel-honest-monthly-review", "weekly-review"], f"prompts: {prompts}")
        print(f"mcp-check: stdio: {len(tools)} tools, {len(resources)} resources, {len(templates)} template, {len(prompts)} prompts")

        started = time.time()
        year = await pages(session, "get_daily_metrics", {"from": first, "to": last}, "days")
        print(f"mcp-check: get_daily_metrics for the year: {len(year)} days in {time.time() - started:.2f} s (paged)")
        compare_days(year, cli("days", "--from", first, "--to", last), "stdio days")

        nights = await pages(session, "get_sleep", {"from": first, "to": last}, "nights")
        reference = {n["local_date"]: n for n in cli("sleep", "--from", first, "--to", last)}
        check(len(nights) == len(reference), f"sleep: {len(nights)} nights, expected {len(reference)}")
        for night in nights:
            theirs = reference.get(night["local_date"], {}).get("main")
            mine = night["main"]
            if (mine is None) != (theirs is None) or (mine and not close(mine["asleep_hours"], hours(theirs["asleep_seconds"]))):
                failures.append(f"sleep {night['local_date']}: {mine and mine['asleep_hours']} != {theirs and hours(theirs['asleep_seconds'])}")
                break

        month_from = last[:8] + "01"
        scores = await pages(session, "get_readiness", {"from": month_from, "to": last}, "scores")
        reference = {s["date"]: s["score"] for s in cli("readiness", "--from", month_from, "--to", last)}
        check({s["date"]: s["score"] for s in scores} == reference, "readiness scores differ from healthpipe readiness")

        at = f"{last}T20:00:00-08:00"
        context = structured(await session.call_tool("get_coach_context", {"at": at}), "get_coach_context")
        snapshot = cli("snapshot", "--at", at)
        for field in ("step_count_today", "resting_heart_rate_bpm", "last_night_sleep_duration_hours", "date"):
            check(context.get(field) == snapshot.get(field), f"context {field}: {context.get(field)} != {snapshot.get(field)}")

        # A workout's id from the list opens it in full and gives its route.
        listed = structured(await session.call_tool("get_workouts", {"from": first, "to": last, "include_route": True}),
                            "get_workouts")
        with_route = [w for w in listed["workouts"] if w.get("route")]
        check(len(with_route) > 0, "get_workouts: no workout with a route in the year")
        workout_id = with_route[0]["id"]
        details = structured(await session.call_tool("get_workout_details", {"id": workout_id, "max_hr": 190}),
                             "get_workout_details")
        check(details["id"] == workout_id and "heart_rate" in details, f"get_workout_details: {sorted(details)}")
        route = structured(await session.call_tool("get_workout_route", {"id": workout_id, "max_points": 50}),
                           "get_workout_route")
        check(0 < len(route["points"]) <= 50, f"get_workout_route: {len(route['points'])} points")
        load = structured(await session.call_tool("get_training_load", {"date": last}), "get_training_load")
        check(load["basis"] == "energy" and len(load["days"]) == 28, f"get_training_load: {sorted(load)}")
        for tool, arguments in [
            ("get_workouts", {"from": month_from, "to": last, "include_route": True}),
            ("get_trends", {"metric": "steps", "period": 30, "date": last}),
            ("get_trends", {"metric": "hrv", "period": 365, "date": last}),
            ("compare_periods", {"a_from": first, "a_to": month_from, "b_from": month_from, "b_to": last}),
            ("list_data_types", {}),
            ("query_samples", {"type": "HKQuantityTypeIdentifierHeartRate", "from": last, "to": last, "bucket": "hour"}),
            ("query_samples", {"type": "HKQuantityTypeIdentifierStepCount", "from": first, "to": last}),
            ("compare_around_event", {"date": month_from, "days": 28}),
        ]:
            structured(await session.call_tool(tool, arguments), tool)
        steps = structured(await session.call_tool(
            "query_samples", {"type": "HKQuantityTypeIdentifierStepCount", "from": first, "to": last}), "query_samples")
        by_date = {day["local_date"]: day["steps"] for day in year}
        for bucket in steps["buckets"]:
            if round(bucket["sum"]) != by_date.get(bucket["date"]):
                failures.append(f"query_samples steps {bucket['date']}: {bucket['sum']} != {by_date.get(bucket['date'])}")
                break
        trend = structured(await session.call_tool("get_trends", {"metric": "steps", "period": 7, "date": last}), "get_trends")
        week = [d["steps"] for d in year[-7:] if d["steps"] is not None]
        check(close(trend["mean"], sum(week) / len(week)), f"trend mean {trend['mean']} != {sum(week) / len(week)}")

        # correlate_metrics against scipy on the same days, to 1e-9 (issue 36 §4).
        keys = {"steps": "steps", "active_energy": "active_energy_kcal", "sleep_hours": "sleep_hours",
                "resting_hr": "resting_hr_bpm", "hrv": "hrv_ms"}
        by_date = {d["local_date"]: d for d in year}
        for a, b, lag in [("steps", "active_energy", 0), ("sleep_hours", "hrv", 1), ("resting_hr", "steps", 3)]:
            to = (datetime.date.fromisoformat(last) - datetime.timedelta(days=lag)).isoformat()
            answer = structured(await session.call_tool(
                "correlate_metrics", {"metric_a": a, "metric_b": b, "from": first, "to": to, "lag": lag}), "correlate_metrics")
            x, y = [], []
            day = datetime.date.fromisoformat(first)
            while day.isoformat() <= to:
                left = by_date.get(day.isoformat(), {}).get(keys[a])
                right = by_date.get((day + datetime.timedelta(days=lag)).isoformat(), {}).get(keys[b])
                if left is not None and right is not None:
                    x.append(left)
                    y.append(right)
                day += datetime.timedelta(days=1)
            pearson, spearman = stats.pearsonr(x, y).statistic, stats.spearmanr(x, y).statistic
            check(answer["pairs"] == len(x), f"correlate {a}/{b}: {answer['pairs']} pairs != {len(x)}")
            check(abs(answer["pearson"] - pearson) < 1e-9, f"correlate {a}/{b}: r {answer['pearson']} != scipy {pearson}")
            check(abs(answer["spearman"] - spearman) < 1e-9, f"correlate {a}/{b}: rho {answer['spearman']} != scipy {spearman}")
        print(f"mcp-check: correlate_metrics equals scipy's r and rho on 3 pairs of metrics")
        # compare_around_event against the same computation on the year's days (docs/mcp.md §Analysis).
        event = datetime.date.fromisoformat(last) - datetime.timedelta(days=100)
        around = structured(await session.call_tool(
            "compare_around_event", {"date": event.isoformat(), "days": 21}), "compare_around_event")
        def values(metric, offsets):
            found = (by_date.get((event + datetime.timedelta(days=o)).isoformat(), {}).get(keys[metric]) for o in offsets)
            return [v for v in found if v is not None]
        for row in around["metrics"]:
            before, after = values(row["metric"], range(-21, 0)), values(row["metric"], range(1, 22))
            baseline = values(row["metric"], range(-60, 0))
            check(row["before_days"] == len(before) and row["after_days"] == len(after), f"around {row['metric']}: days")
            expected = statistics.fmean(after) - statistics.fmean(before)
            check(abs(row["difference"] - expected) < 1e-9, f"around {row['metric']}: {row['difference']} != {expected}")
            sd = statistics.stdev(baseline)
            check(abs(row["baseline_sd"] - sd) < 1e-9, f"around {row['metric']}: sd {row['baseline_sd']} != {sd}")
            check(abs(row["difference_in_sd"] - expected / sd) < 1e-9, f"around {row['metric']}: in sd")
        print(f"mcp-check: compare_around_event equals the same means and deviations on {len(around['metrics'])} metrics")

        for uri in ["health://coach/context", "health://readiness/today", f"health://days/{month_from}/{last}"]:
            contents = (await session.read_resource(uri)).contents
            check(contents and json.loads(contents[0].text), f"resource {uri} is empty")
        last7 = json.loads((await session.read_resource("health://days/last-7")).contents[0].text)["days"]
        check(last7 == year[-7:], f"health://days/last-7 is not the year's last seven days: {[d['local_date'] for d in last7]}")
        for name, arguments, tool in [
            ("weekly-review", {"week_ending": last}, "get_daily_metrics"),
            ("sleep-deep-dive", {"ending": last, "nights": "14"}, "get_sleep"),
            ("training-load-check", {"ending": last}, "get_training_load"),
            ("doctor-visit-summary", {"from": month_from, "to": last}, "compare_periods"),
            ("travel-honest-monthly-review", {"month": last[:7]}, "time zone"),
        ]:
            prompt = await session.get_prompt(name, arguments)
            check(tool in prompt.messages[0].content.text, f"the prompt {name} does not name {tool}")
        try:
            await session.get_prompt("sleep-deep-dive", {"nights": "99"})
            failures.append("sleep-deep-dive took 99 nights")
        except Exception as error:
            check("7 to 28" in str(error), f"sleep-deep-dive's refusal: {error}")

        for tool, arguments, words in [
            ("get_daily_metrics", {"from": "yesterday", "to": last}, "YYYY-MM-DD"),
            ("get_daily_metrics", {"from": last, "to": first}, "after"),
            ("get_trends", {"metric": "steps", "period": 8}, "7, 30, 90 or 365"),
            ("get_trends", {"metric": "mood", "period": 7}, "steps"),
            ("query_samples", {"type": "HKQuantityTypeIdentifierHeartRate", "from": first, "to": last, "bucket": "hour"}, "at most"),
            ("get_sleep", {"from": first, "to": last, "colour": "blue"}, "colour"),
            ("log_subjective", {"mood": 4}, "--allow-writes"),
            ("no_such_tool", {}, "no tool"),
        ]:
            result = await session.call_tool(tool, arguments)
            text = result.content[0].text if result.content else ""
            check(result.is_error and words in text, f"{tool} {arguments}: expected a tool error about '{words}', got {text[:120]}")
        check(len(structured(await session.call_tool("list_data_types", {}), "list_data_types")["types"]) > 5,
              "the server stopped answering after bad arguments")


def post(path, body, token=None, headers=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18", **({"Authorization": f"Bearer {token}"} if token else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def get(path, token):
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


async def http_part():
    client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {alice}"}, timeout=60)
    async with streamable_http_client(base + "/mcp", http_client=client, terminate_on_close=False) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            check(len(tools) == 14, f"http: {len(tools)} tools")
            listed = {tool.name: tool.output_schema for tool in tools}
            check(all(listed[name] == schemas.get(name) for name in listed), "http: the outputSchemas differ from stdio's")
            check_listing(tools, "http")
            days = await pages(session, "get_daily_metrics", {"from": server_first, "to": server_last}, "days")
            reference = get(f"/v1/daily-metrics?from={server_first}&to={server_last}", alice)
            stored = {d["local_date"] for d in reference}
            compare_days([d for d in days if d["local_date"] in stored], reference, "http days")
            nights = await pages(session, "get_sleep", {"from": server_first, "to": server_last}, "nights")
            api = {n["local_date"]: n.get("main") for n in get(f"/v1/sleep?from={server_first}&to={server_last}", alice)}
            for night in nights:
                theirs = api.get(night["local_date"])
                if night["main"] and not close(night["main"]["asleep_hours"], hours(theirs["asleep_seconds"])):
                    failures.append(f"http sleep {night['local_date']} differs from /v1/sleep")
                    break
            for tool, arguments in [
                ("get_coach_context", {"at": f"{server_last}T20:00:00-07:00"}),
                ("get_workouts", {"from": server_first, "to": server_last}),
                ("get_trends", {"metric": "sleep_hours", "period": 30, "date": server_last}),
                ("compare_periods", {"a_from": server_first, "a_to": server_first[:8] + "28", "b_from": server_last[:8] + "01",
                                     "b_to": server_last}),
                ("list_data_types", {}),
                ("query_samples", {"type": "HKQuantityTypeIdentifierRestingHeartRate", "from": server_first, "to": server_last}),
            ]:
                structured(await session.call_tool(tool, arguments), "http " + tool)
            bad = await session.call_tool("get_sleep", {"from": server_last, "to": server_first})
            check(bad.is_error, "http: a bad range is not a tool error")
            score = structured(await session.call_tool("get_readiness", {"date": server_last}), "get_readiness")
            api = get(f"/v1/readiness?date={server_last}", alice)
            check(score["scores"][0]["score"] == api["score"], f"http readiness {score['scores'][0]['score']} != {api['score']}")
    print(f"mcp-check: http: every tool answered; {len(days)} days, {len(nights)} nights and readiness equal the API's")

    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcp-check", "version": "1"}}}
    status, _ = post("/mcp", initialize)
    check(status == 401, f"POST /mcp without a token: {status}, expected 401")
    status, _ = post("/mcp", initialize, coach)
    check(status == 200, f"the coach's initialize: {status}")
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_sleep", "arguments": {
        "from": server_first, "to": server_last}}}
    status, problem = post("/mcp", call, coach)
    check(status == 403 and "sleep" in (problem or {}).get("detail", ""), f"the coach's get_sleep: {status} {problem}")
    call["params"] = {"name": "get_daily_metrics", "arguments": {"from": server_first, "to": server_last}}
    status, answer = post("/mcp", call, coach)
    content = (answer or {}).get("result", {}).get("structuredContent", {})
    check(status == 200 and content.get("withheld") == ["energy", "heart", "sleep"],
          f"the coach's daily metrics: {status}, withheld {content.get('withheld')}")
    check(all(day["sleep_hours"] is None for day in content.get("days", [])), "the coach sees sleep hours")
    errors = schema_errors("get_daily_metrics", content)
    check(not errors, f"the coach's daily metrics do not match their outputSchema: {'; '.join(errors[:5])}")
    print("mcp-check: http: no token 401; the coach's token: 403 for sleep, daily metrics without sleep")


asyncio.run(stdio_part())
asyncio.run(http_part())
largest = max(sizes, key=sizes.get)
print(f"mcp-check: largest answer {sizes[largest]} bytes ({largest}); cap {CAP}")
if failures:
    print("\n".join("mcp-check: " + f for f in failures), file=sys.stderr)
    sys.exit(1)
print("mcp-check: 1 passed, 0 failed")
