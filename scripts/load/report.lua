-- The summary both load scripts print: requests, errors by kind, p50/p90/p99 latency.
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors: connect %d read %d write %d status %d timeout %d\n",
    summary.requests, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout))
  for _, p in pairs({50, 90, 99}) do
    io.write(string.format("p%d %.2f ms\n", p, latency:percentile(p) / 1000))
  end
end
