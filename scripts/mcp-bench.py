"""Times get_daily_metrics for a year over `healthpipe mcp` (stdio), first and warm.

argv: healthpipe binary (release), store, first day, last day, runs (default 5).
A year is answered in pages of 120 days (next_from): the time is for all the pages.
"""
import asyncio
import statistics
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

healthpipe, store, first, last = sys.argv[1:5]
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 5


async def year(session):
    arguments, days, started = {"from": first, "to": last}, 0, time.perf_counter()
    while True:
        result = await session.call_tool("get_daily_metrics", arguments)
        assert not result.is_error, result.content[0].text
        days += len(result.structured_content["days"])
        if "next_from" not in result.structured_content:
            return time.perf_counter() - started, days
        arguments["from"] = result.structured_content["next_from"]


async def main():
    parameters = StdioServerParameters(command=healthpipe, args=["mcp", "--db", store, "--home-tz", "America/Los_Angeles"])
    async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        cold, days = await year(session)
        warm = [(await year(session))[0] for _ in range(runs)]
        print(f"mcp-bench: {days} days {first}–{last}: first {cold * 1000:.0f} ms (days computed), "
              f"then median {statistics.median(warm) * 1000:.1f} ms, best {min(warm) * 1000:.1f} ms, "
              f"worst {max(warm) * 1000:.1f} ms over {runs} runs")


asyncio.run(main())
