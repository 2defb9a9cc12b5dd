#!/usr/bin/env python3
"""Writes Sources/HealthServer/Resources/openapi.json, the OpenAPI 3.1 document the server
serves at /openapi.json (compiled into the binary: `.embedInCode` in Package.swift). Edit
the document here and run `python3 scripts/openapi.py`; OpenAPITests checks the result
against the router's routes, both ways."""
import json
import os
def ref(n): return {"$ref": f"#/components/schemas/{n}"}
# `daily` of a write's answer: all zeros since the days are computed after the answer.
DEPRECATED_DAILY = {"allOf": [ref("UpsertCounts")], "deprecated": True, "description": "All zeros since the days moved off the request path (days_pending); kept for older clients."}
def resp(n): return {"$ref": f"#/components/responses/{n}"}
def q(name, desc, required=False, schema=None, example=None):
    p = {"name": name, "in": "query", "required": required, "description": desc, "schema": schema or {"type": "string"}}
    if example is not None: p["example"] = example
    return p
# Dates; a query date outside 1900-01-01 … 2199-12-31 is a 422 (HealthRoutes.servedDates).
date = {"type": "string", "format": "date"}
# The zones the server knows (Foundation's list on Linux, plus UTC), from scripts/timezones.txt.
with open(os.path.join(os.path.dirname(__file__), 'timezones.txt')) as zones:
    zone = {"type": "string", "enum": [line.strip() for line in zones if line.strip()]}
tz = q("tz", "IANA zone of days whose samples carry no HKTimeZone. On a write, it becomes the person's home zone when they have none yet, and is otherwise not used (their days stay in their home zone: PUT /v1/me/zone changes it); on a read, the zone of its days (default: the home zone, else UTC).", schema=ref("Zone"), example="Europe/Paris")
frm = q("from", "First local date, inclusive.", True, date, "2024-06-01")
to = q("to", "Last local date, inclusive.", True, date, "2024-06-30")
version = q("version", "Normalisation version.", schema={"type": "string", "enum": ["norm_v1", "norm_v2"], "default": "norm_v1"})
errors_read = {"400": resp("BadRequest"), "401": resp("Unauthorized"), "403": resp("Forbidden"), "429": resp("TooManyRequests")}
# Parameters that are each valid but cannot go together (from after to, a range too long, lat without lon).
cross = {"422": resp("UnprocessableRequest")}
errors_write = dict(errors_read, **{"413": resp("ContentTooLarge"), "415": resp("UnsupportedMediaType")})
workout_id = {"name": "id", "in": "path", "required": True, "description": "The workout's UUID.", "schema": {"type": "string", "format": "uuid"}}
def op(summary, desc, responses, params=None, body=None, opid=None, security=True, tags=None):
    o = {"operationId": opid, "summary": summary, "description": desc, "responses": responses}
    if params: o["parameters"] = params
    if body: o["requestBody"] = body
    if not security: o["security"] = []
    if tags: o["tags"] = tags
    return o
def ok(schema, desc="OK", ctype="application/json"):
    return {"description": desc, "content": {ctype: {"schema": schema}}}
doc = {
 "openapi": "3.1.0",
 "info": {"title": "HealthPipeline API", "version": "1.0.0",
  "description": "Per-user health data: daily metrics, readiness, sleep, the coach snapshot, raw samples, Health Auto Export and Apple Health export uploads, CSV export. Every /v1 route needs `Authorization: Bearer <token>` — the person's owner token (from `healthpipe users add`) or a scoped token they made for someone else (`healthpipe users token add`) — with the read or write scope; every query is scoped to the token's user. Errors are application/problem+json (RFC 9457). See docs/api.md.",
  "license": {"name": "MIT", "identifier": "MIT"}},
 "servers": [{"url": "http://127.0.0.1:8080", "description": "healthpipe serve (default)"}],
 "security": [{"bearer": []}],
 "tags": [{"name": "probes"}, {"name": "daily"}, {"name": "ingest"}, {"name": "reads"}, {"name": "imports"}],
 "paths": {
  "/healthz": {"get": op("Liveness", "Answers while the process runs.", {"200": ok({"type": "object", "properties": {"status": {"const": "ok"}}})}, opid="healthz", security=False, tags=["probes"])},
  "/readyz": {"get": op("Readiness of the store", "200 when the store answers, 503 when it does not.", {"200": ok({"type": "object", "properties": {"status": {"const": "ready"}}}), "503": resp("ServiceUnavailable")}, opid="readyz", security=False, tags=["probes"])},
  "/openapi.json": {"get": op("This document", "The OpenAPI 3.1 document of the routes this server has.", {"200": ok({"type": "object"})}, opid="openapi", security=False, tags=["probes"])},
  "/v1/daily-metrics": {
   "post": op("Upsert daily metrics", "An array of payloads in the backend schema, upserted per (user, local_date, normalization_version) in one transaction. A retried request changes nothing; a day identical in every field but created_at is left alone. A local_date that does not match its timezone and UTC bounds is a 422 with the JSON Pointer of the field. Scope: write.",
     dict(errors_write, **{"200": ok(ref("UpsertCounts")), "422": resp("Unprocessable")}),
     body={"required": True, "content": {"application/json": {"schema": {"type": "array", "items": ref("DailyMetrics"), "maxItems": 1000}}}}, opid="postDailyMetrics", tags=["daily"]),
   "get": op("Daily metrics in a range", "The user's days from `from` through `to`, oldest first (at most 3660 days). Scope: read.",
     dict(errors_read, **cross, **{"200": ok({"type": "array", "items": ref("DailyMetrics")})}), params=[frm, to, version], opid="getDailyMetrics", tags=["daily"])},
  "/v1/readiness": {"get": op("Readiness", "One score (`date`) or an array (`from`, `to`, at most 366 days), computed from the stored daily metrics by the same engine as `healthpipe readiness`. Scope: read.",
     dict(errors_read, **cross, **{"200": ok({"oneOf": [ref("ReadinessScore"), {"type": "array", "items": ref("ReadinessScore")}]})}),
     params=[q("date", "One local date (instead of from/to).", schema=date), dict(frm, required=False), dict(to, required=False), q("sleep_need", "Hours of sleep needed, 4–12 (default 8).", schema={"type": "number", "minimum": 4, "maximum": 12}), version], opid="getReadiness", tags=["daily"])},
  "/v1/health-auto-export": {"post": op("Ingest a Health Auto Export body", "The JSON the Health Auto Export app POSTs (metrics and workouts, v1 and v2 shapes). Unknown metric names are stored under their own type and listed in the answer. Re-sending a body adds nothing. The local days touched are recomputed after the answer (days_pending). Scope: write.",
     dict(errors_write, **{"200": ok(ref("IngestReport")), "422": resp("Unprocessable"), "503": resp("StoreBusy")}), params=[tz],
     body={"required": True, "content": {"application/json": {"schema": {"type": "object", "required": ["data"], "properties": {"data": {"type": "object", "properties": {"metrics": {"type": "array", "items": {"type": "object"}}, "workouts": {"type": "array", "items": {"type": "object"}}}}}}}}}, opid="postHealthAutoExport", tags=["ingest"])},
  "/v1/samples": {"post": op("Ingest raw samples", "A batch of samples in the store's JSON form (at most 100,000), stored with content-key deduplication; the local days touched are recomputed after the answer (days_pending). The same Idempotency-Key with the same body replays the first answer (header Idempotent-Replayed: true); with another body it is a 422; while the first request with the key is still running, another is a 409. Scope: write.",
     dict(errors_write, **{"200": ok(ref("IngestReport")), "409": resp("Conflict"), "422": resp("Unprocessable"), "503": resp("StoreBusy")}),
     params=[{"name": "Idempotency-Key", "in": "header", "required": True, "description": "Names this batch (1–200 characters).", "schema": {"type": "string", "minLength": 1, "maxLength": 200}}, tz],
     body={"required": True, "content": {"application/json": {"schema": ref("SampleBatch")}}}, opid="postSamples", tags=["ingest"])},
  "/v1/sleep": {"get": op("Sleep per night", "The sleep sessions of each night (as `healthpipe sleep --format json`), at most 366 nights. Scope: read.",
     dict(errors_read, **cross, **{"200": ok({"type": "array", "items": {"type": "object"}})}), params=[frm, to, tz], opid="getSleep", tags=["reads"])},
  "/v1/snapshot": {"get": op("Coach context snapshot", "Today's state from the user's health data and daily log (as `healthpipe snapshot --format json`). Every provider has a deadline; an empty field is listed under `missing` with the reason. The weather is asked only when lat and lon are given. Scope: read.",
     dict(errors_read, **cross, **{"200": ok(ref("Snapshot"))}),
     params=[q("at", "The as-of instant, ISO 8601 with an offset, within the years 1900–2199 (default now; when the data ends before today, its newest sample, and HealthPipe-Note says so).", schema={"type": "string", "format": "date-time"}), tz, q("lat", "Latitude for the weather, with lon.", schema={"type": "number", "minimum": -90, "maximum": 90}), q("lon", "Longitude for the weather, with lat.", schema={"type": "number", "minimum": -180, "maximum": 180})], opid="getSnapshot", tags=["reads"])},
  "/v1/export.csv": {"get": op("CSV export, streamed", "Date,Metric,Value,Unit rows (plus Source with source=true) for the named metrics, in the user's units; see docs/export.md. Scope: read.",
     dict(errors_read, **cross, **{"200": ok({"type": "string"}, ctype="text/csv")}),
     params=[q("metrics", "Comma-separated metric names, or all (default); a list naming none is a 400.", schema={"type": "string", "pattern": "[^,\\s]"}, example="steps,weight"), frm, to, tz,
       q("weight_unit", "kg or lb.", schema={"enum": ["kg", "lb"]}), q("glucose_unit", "mg/dL or mmol/L.", schema={"enum": ["mg/dL", "mmol/L"]}),
       q("distance_unit", "km or mi.", schema={"enum": ["km", "mi"]}), q("temperature_unit", "C or F.", schema={"enum": ["C", "F"]}),
       q("date_format", "iso or healthexporter.", schema={"enum": ["iso", "healthexporter"]}), q("source", "true adds a Source column.", schema={"type": "boolean"})], opid="getExportCSV", tags=["reads"])},
  "/v1/imports": {"post": op("Upload an Apple Health export", "The export.zip as the body, streamed to disk (limit: serve --max-upload-mib) and imported in the background: a user's imports one after another, imports of different users side by side (serve --import-concurrency). Answers 202 with the job and Location: /v1/imports/{id}. A user with serve --max-imports-per-user imports (default 2) queued, running or being uploaded gets 429 with Retry-After. An upload whose entries inflate past 50 times its size (16 GiB at most) fails as a zip bomb. Scope: write.",
     dict(errors_write, **{"202": {"description": "Accepted", "headers": {"Location": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": ref("ImportJob")}},
       "links": {"GetImport": {"operationId": "getImport", "parameters": {"id": "$response.body#/id"}, "description": "The job just queued."}}}}),
     params=[tz], body={"required": True, "content": {"application/zip": {"schema": {"type": "string", "contentMediaType": "application/zip", "minLength": 1}}, "application/octet-stream": {"schema": {"type": "string", "format": "binary", "minLength": 1}}}}, opid="postImport", tags=["imports"])},
  "/v1/workouts": {"get": op("Workouts in a range", "The workouts that start in the local days from `from` through `to` (days in `tz`, at most 3660), oldest first, each with what it recorded of itself: its totals and its WorkoutStatistics, values in their recorded units. `type` keeps one activity (`running`, `HKWorkoutActivityTypeRunning`), `min_minutes` the workouts at least that long. Scope: read.",
     dict(errors_read, **cross, **{"200": ok(ref("WorkoutList"))}),
     params=[frm, to, tz, q("type", "One activity: its short name or HealthKit identifier, compared without case or underscores.", schema={"type": "string", "minLength": 1, "maxLength": 121, "pattern": "^[A-Za-z0-9_]*[A-Za-z0-9][A-Za-z0-9_]*$"}, example="running"), q("min_minutes", "Only workouts at least this many minutes long.", schema={"type": "integer", "minimum": 0, "maximum": 10000})], opid="getWorkouts", tags=["reads"])},
  "/v1/workouts/{id}": {"get": op("One workout", "The workout with its statistics, events (pause, resume, lap, segment, marker), metadata and routes without their points (see /route). Scope: read.",
     dict(errors_read, **{"200": ok(ref("WorkoutDetail")), "404": resp("NotFound")}), params=[workout_id], opid="getWorkout", tags=["reads"])},
  "/v1/workouts/{id}/route": {"get": op("A workout's route", "Every point of the workout's routes, as GPX 1.1 (default; Apple's speed, course, hAcc and vAcc extensions) or as GeoJSON (one LineString per route — a Point for a route of one point, none for a route without points — the points' times, speeds, courses and accuracies in its properties). 404 when the workout recorded no route. Scope: read.",
     dict(errors_read, **{"200": {"description": "OK", "content": {"application/gpx+xml": {"schema": {"type": "string"}}, "application/geo+json": {"schema": ref("RouteGeoJSON")}}}, "404": resp("NotFound")}),
     params=[workout_id, q("format", "gpx (default) or geojson.", schema={"type": "string", "enum": ["gpx", "geojson"], "default": "gpx"})], opid="getWorkoutRoute", tags=["reads"])},
  "/v1/workouts/{id}/heart-rate": {"get": op("A workout's heart rate", "The heart-rate readings of the workout's span (bpm), their time-weighted mean (each reading holds until the next, at most 10 minutes), lowest and highest; with max_hr, the seconds in each of five zones (50–60–70–80–90 % of it; below_zones_s under 50 %). Scope: read.",
     dict(errors_read, **{"200": ok(ref("WorkoutHeartRate")), "404": resp("NotFound")}),
     params=[workout_id, q("max_hr", "Maximum heart rate, bpm, for the zones.", schema={"type": "integer", "minimum": 100, "maximum": 250})], opid="getWorkoutHeartRate", tags=["reads"])},
  "/v1/imports/{id}": {"get": op("An import's progress and result", "The job: queued, running (bytes read, records), succeeded (added, duplicates, days recomputed) or failed (the reason). Scope: read.",
     dict(errors_read, **{"200": ok(ref("ImportJob")), "404": resp("NotFound")}),
     params=[{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}], opid="getImport", tags=["imports"])},
 },
 "components": {
  "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "hp_<id>_<secret>, from `healthpipe users add` (the owner's) or `healthpipe users token add` (a scoped token)."}},
  "responses": {k: {"description": d, "content": {"application/problem+json": {"schema": ref("Problem")}}} for k, d in [
    ("BadRequest", "A bad parameter or body; `pointer` names the field."), ("Unauthorized", "No, a malformed, an unknown or a revoked token."),
    ("Forbidden", "The token lacks the scope."), ("NotFound", "No such resource of this user."), ("Conflict", "An Idempotency-Key whose first request is still running (retry later), or a state that forbids the request (an import in progress)."),
    ("ContentTooLarge", "The body is larger than the server accepts."), ("UnsupportedMediaType", "The wrong Content-Type."),
    ("Unprocessable", "A well-formed body whose content cannot be used (a local_date that does not match its timezone and UTC bounds, end before start, a Health Auto Export point without a readable date); `pointer` names the field."),
    ("UnprocessableRequest", "Parameters that are each valid but cannot go together: from after to, a range longer than the route allows, lat without lon, an unknown metric or type name, readiness without date or from and to."), ("TooManyRequests", "Over the per-token rate limit, or (POST /v1/imports) too many imports of the user in flight; see Retry-After."),
    ("ServiceUnavailable", "The store does not answer."),
    ("StoreBusy", "Concurrent writes kept colliding in the PostgreSQL store (a deadlock or a serialization failure on every try): nothing was written; send the same request again after Retry-After seconds.")]},
  "schemas": {
   "Zone": dict(zone, description="An IANA time zone the server knows."),
   "WorkoutQuantity": {"type": "object", "required": ["value"], "properties": {"value": {"type": "number"}, "unit": {"type": "string", "description": "As recorded: kcal, kJ, km, mi, m…"}}},
   "WorkoutStatistic": {"type": "object", "required": ["type", "kind"], "description": "One WorkoutStatistics element: sum for a cumulative type, average/minimum/maximum for a discrete one, in the unit recorded.", "properties": {
      "type": {"type": "string", "example": "HKQuantityTypeIdentifierHeartRate"}, "kind": {"type": "string", "enum": ["steps", "energy", "activity", "heart", "sleep", "body", "workouts", "other"]},
      "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
      "sum": {"type": "number"}, "average": {"type": "number"}, "minimum": {"type": "number"}, "maximum": {"type": "number"}, "unit": {"type": "string"}}},
   "WorkoutSummary": {"type": "object", "required": ["uuid", "activity_type", "activity", "start", "end", "duration_s", "source", "statistics"], "description": "A workout and what it recorded of itself. total_energy_burned needs read access to energy, total_distance to activity, each statistic to its type's kind: left out otherwise (HealthPipe-Withheld).", "properties": {
      "uuid": {"type": "string", "format": "uuid"}, "activity_type": {"type": "string", "example": "HKWorkoutActivityTypeRunning"}, "activity": {"type": "string", "example": "Running"},
      "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
      "duration_s": {"type": "number", "minimum": 0, "description": "The recorded duration in seconds, else end minus start."},
      "time_zone": {"type": "string", "description": "The IANA zone it was recorded in (HKTimeZone), when known."}, "source": {"type": "string"}, "device": {"type": "object"},
      "total_energy_burned": ref("WorkoutQuantity"), "total_distance": ref("WorkoutQuantity"),
      "statistics": {"type": "array", "items": ref("WorkoutStatistic")}}},
   "WorkoutHeartRate": {"type": "object", "required": ["workout", "start", "end", "readings"], "properties": {
      "workout": {"type": "string", "format": "uuid"}, "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
      "mean_bpm": {"type": "number"}, "minimum_bpm": {"type": "number"}, "maximum_bpm": {"type": "number"}, "max_hr": {"type": "number"},
      "zones": {"type": "array", "items": {"type": "object", "required": ["zone", "from_bpm", "seconds"], "properties": {"zone": {"type": "integer", "minimum": 1, "maximum": 5}, "from_bpm": {"type": "number"}, "to_bpm": {"type": "number"}, "seconds": {"type": "number", "minimum": 0}}}},
      "below_zones_s": {"type": "number", "minimum": 0},
      "readings": {"type": "array", "items": {"type": "object", "required": ["time", "bpm"], "properties": {"time": {"type": "string", "format": "date-time"}, "bpm": {"type": "number"}}}}}},
   "WorkoutList": {"type": "object", "required": ["from", "to", "workouts"], "properties": {"from": date, "to": date, "workouts": {"type": "array", "items": ref("WorkoutSummary")}}},
   "WorkoutDetail": {"type": "object", "required": ["workout", "events", "metadata", "routes", "activities", "kept_elements"], "properties": {
      "workout": ref("WorkoutSummary"),
      "events": {"type": "array", "items": {"type": "object", "required": ["type", "date", "metadata"], "properties": {"type": {"type": "string", "example": "HKWorkoutEventTypePause"}, "date": {"type": "string", "format": "date-time"}, "duration": {"type": "number"}, "duration_unit": {"type": "string"}, "metadata": {"type": "object", "additionalProperties": {"type": "string"}}}}},
      "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
      "routes": {"type": "array", "items": {"type": "object", "required": ["points"], "properties": {"start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"}, "source": {"type": "string"}, "points": {"type": "integer", "minimum": 0}, "file_path": {"type": "string"}}}},
      "activities": {"type": "array", "description": "The workout's activities (iOS 16 and later; a multisport workout's legs), in the order recorded. Statistics and metadata of kinds the token may not read are left out.", "items": {"type": "object", "required": ["start", "metadata", "events", "statistics"], "properties": {
         "uuid": {"type": "string", "format": "uuid"}, "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
         "duration_s": {"type": "number", "minimum": 0}, "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
         "events": {"type": "array", "items": {"type": "object"}}, "statistics": {"type": "array", "items": ref("WorkoutStatistic")}}}},
      "kept_elements": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}, "description": "Child elements of the export's <Workout> kept as read (WorkoutActivity, also modelled in activities, and anything newer), by name."}}},
   "RouteGeoJSON": {"type": "object", "required": ["type", "features"], "properties": {"type": {"const": "FeatureCollection"}, "features": {"type": "array", "items": {"type": "object", "required": ["type", "geometry", "properties"], "properties": {
      "type": {"const": "Feature"}, "geometry": {"description": "A LineString for a route of two points or more; a Point for a route of one (GeoJSON's LineString needs two positions, RFC 7946 §3.1.4).", "oneOf": [
         {"type": "object", "required": ["type", "coordinates"], "properties": {"type": {"const": "LineString"}, "coordinates": {"type": "array", "minItems": 2, "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 3}}}},
         {"type": "object", "required": ["type", "coordinates"], "properties": {"type": {"const": "Point"}, "coordinates": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 3}}}]},
      "properties": {"type": "object"}}}}}},
   "Problem": {"type": "object", "required": ["type", "title", "status", "detail"], "properties": {"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"}, "detail": {"type": "string"}, "instance": {"type": "string"}, "pointer": {"type": "string", "description": "JSON Pointer (RFC 6901) of the bad field."}}},
   "DailyMetrics": {"type": "object", "required": ["local_date", "timezone", "utc_day_start", "utc_day_end", "normalization_version", "created_at"], "properties": {
      "user_id": {"type": ["string", "null"], "description": "Ignored on input: the token's user."}, "local_date": date, "timezone": {"type": "string"},
      "utc_day_start": {"type": "string", "format": "date-time"}, "utc_day_end": {"type": "string", "format": "date-time"},
      "steps_normalized": {"type": ["integer", "null"], "minimum": 0, "maximum": 1000000}, "steps_raw_sum": {"type": ["integer", "null"], "minimum": 0, "maximum": 10000000}, "steps_sources_json": {"type": ["object", "null"], "required": ["secondary_sources_used", "ignored_sources", "suspicious_steps", "raw_sample_count"], "properties": {"primary_source": {"type": ["string", "null"]}, "secondary_sources_used": {"type": "array", "items": {"type": "string"}}, "ignored_sources": {"type": "array", "items": {"type": "string"}}, "suspicious_steps": {"type": "boolean"}, "raw_sample_count": {"type": "integer", "minimum": 0, "maximum": 10000000}}},
      "active_energy_kcal": {"type": ["number", "null"], "minimum": 0, "maximum": 50000}, "sleep_hours": {"type": ["number", "null"], "minimum": 0, "maximum": 24, "description": "Asleep hours of the night ending that morning; null when no source measured sleep (a night of only time in bed, see sleep_source_json)."},
      "sleep_source_json": {"type": ["object", "null"], "description": "What the night's sleep was taken from (one source by the priority table of docs/sleep.md) and its time in bed; null without a night. Added after the first version: a payload without it is accepted.", "required": ["basis", "in_bed_hours"], "properties": {"basis": {"enum": ["watch_stages", "tracker_stages", "asleep_unspecified", "in_bed_only"]}, "in_bed_hours": {"type": "number", "minimum": 0, "maximum": 24}}},
      "resting_hr_bpm": {"type": ["number", "null"], "minimum": 20, "maximum": 250}, "hrv_ms": {"type": ["number", "null"], "minimum": 0, "maximum": 1000},
      "normalization_version": {"enum": ["norm_v1", "norm_v2"]}, "created_at": {"type": "string", "format": "date-time"}}},
   "UpsertCounts": {"type": "object", "required": ["inserted", "updated", "unchanged"], "properties": {k: {"type": "integer"} for k in ["inserted", "updated", "unchanged"]}},
   "ReadinessScore": {"type": "object", "description": "See docs/readiness.md.", "properties": {"date": date, "score": {"type": ["integer", "null"]}, "band": {"type": ["string", "null"]}, "confidence": {"type": "number"}, "calibrating": {"type": "boolean"}, "valid_days": {"type": "integer"}, "contributors": {"type": "array", "items": {"type": "object"}}, "reason": {"type": "string"}}},
   "IngestReport": {"type": "object", "required": ["records", "added", "duplicates", "days_recomputed", "daily"], "properties": {"records": {"type": "integer"}, "added": {"type": "integer"}, "duplicates": {"type": "integer"}, "ignored_keys": {"type": "array", "items": {"type": "string"}}, "unknown_metrics": {"type": "array", "items": {"type": "string"}}, "days_pending": {"type": "boolean", "description": "true: the days of this write are computed after the answer (a read of days computes them first; docs/api.md §Values and days)."}, "days_recomputed": {"type": "integer", "deprecated": True, "description": "Always 0 since the days moved off the request path (days_pending); kept for older clients."}, "daily": DEPRECATED_DAILY}},
   "SampleBatch": {"type": "object", "required": ["samples"], "properties": {"samples": {"type": "array", "maxItems": 100000, "items": {"type": "object", "required": ["type", "start", "end", "source"], "properties": {
      "type": {"type": "string", "minLength": 1, "maxLength": 200, "description": "A HealthKit identifier."}, "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
      "value": {"type": "number"}, "value_text": {"type": "string", "description": "A category value, e.g. HKCategoryValueSleepAnalysisAsleepCore."}, "unit": {"type": "string"},
      "source": {"type": "string", "minLength": 1}, "source_version": {"type": "string"}, "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
      "workout": {"type": "object", "description": "Only on a HKWorkoutTypeIdentifier sample: the workout whole (docs/sync.md §4): duration, duration_unit, total_energy_burned(_unit), total_distance(_unit), events, statistics, routes with points {lat, lon, ele, time, speed, course, h_acc, v_acc}, kept. Each field is checked; a bad one is a 422 naming it."},
      "members": {"type": "array", "minItems": 1, "maxItems": 100, "description": "Only on a HKCorrelationTypeIdentifier… sample: its readings (a blood pressure's systolic and diastolic), each a quantity or category sample with its own uuid, linked to it on the server (docs/sync.md §4).", "items": {"type": "object", "required": ["type", "start", "end", "source"], "properties": {
         "uuid": {"type": "string", "format": "uuid"}, "type": {"type": "string", "minLength": 1, "maxLength": 200}, "start": {"type": "string", "format": "date-time"}, "end": {"type": "string", "format": "date-time"},
         "value": {"type": "number"}, "value_text": {"type": "string"}, "unit": {"type": "string"}, "source": {"type": "string", "minLength": 1}, "source_version": {"type": "string"},
         "metadata": {"type": "object", "additionalProperties": {"type": "string"}}, "device": {"type": "object", "additionalProperties": {"type": "string"}},
         "workout": {"type": "object", "description": "Refused on a member (422)."}, "members": {"type": "array", "maxItems": 0, "description": "None on a member (any is a 422)."}}}}}}}}},
   "Snapshot": {"type": "object", "description": "Snake-case fields of HealthContextSnapshot (docs/context.md); empty ones are null and listed under missing.", "required": ["timestamp", "date", "timezone", "missing"], "properties": {"timestamp": {"type": "string"}, "date": date, "timezone": {"type": "string"}, "missing": {"type": "array", "items": {"type": "object", "properties": {"field": {"type": "string"}, "provider": {"type": "string"}, "reason": {"type": "string"}}}}}},
   "ImportJob": {"type": "object", "required": ["id", "state", "upload_bytes", "bytes_read", "total_bytes", "records", "created_at", "updated_at"], "properties": {
      "id": {"type": "string"}, "state": {"enum": ["queued", "running", "succeeded", "failed"]}, "upload_bytes": {"type": "integer"}, "bytes_read": {"type": "integer"}, "total_bytes": {"type": "integer"},
      "records": {"type": "integer"}, "added": {"type": "integer"}, "duplicates": {"type": "integer"}, "already_imported": {"type": "boolean"}, "days_recomputed": {"type": "integer"},
      "daily": ref("UpsertCounts"), "error": {"type": "string"}, "created_at": {"type": "string", "format": "date-time"}, "updated_at": {"type": "string", "format": "date-time"}, "finished_at": {"type": "string", "format": "date-time"}}},
  }}}

# Sample identity, the change feed and deletions (docs/store.md §Identity and deletions).
S = doc["components"]["schemas"]
item = S["SampleBatch"]["properties"]["samples"]["items"]
item["properties"] = {"uuid": {"type": "string", "format": "uuid", "description": "The sample's UUID. Optional when writing: kept when given (a sample stored under it with other content is replaced; one of another type is refused with 422); derived from the content when not (RFC 9562 version 8, docs/store.md). Always present when read."}, **item["properties"]}
item["properties"]["device"] = ref("Device")
item["description"] = "A sample: HealthKit's HKSample in the store's JSON form."
S["Sample"] = item
S["SampleBatch"]["properties"]["samples"]["items"] = ref("Sample")
S["Device"] = {"type": "object", "description": "The hardware that recorded a sample (HKDevice); every field optional.", "properties": {k: {"type": "string"} for k in ["name", "manufacturer", "model", "hardware", "software", "firmware", "local_identifier", "udi_device_identifier"]}}
uuid = {"type": "string", "format": "uuid"}
S["ChangeFeed"] = {"type": "object", "required": ["changes", "next_anchor", "has_more"], "properties": {
    "changes": {"type": "array", "description": "Additions and deletions in anchor order; limit counts both.", "items": {"oneOf": [
        {"type": "object", "required": ["anchor", "uuid", "deleted", "sample"], "properties": {"anchor": {"type": "integer", "minimum": 1}, "uuid": uuid, "deleted": {"const": False}, "sample": ref("Sample")}},
        {"type": "object", "required": ["anchor", "uuid", "deleted", "type"], "properties": {"anchor": {"type": "integer", "minimum": 1}, "uuid": uuid, "deleted": {"const": True}, "type": {"type": "string"}}}]}},
    "next_anchor": {"type": "integer", "minimum": 0, "description": "Pass as since= next time; unchanged when nothing is new."},
    "has_more": {"type": "boolean", "description": "true when limit cut the answer short: ask again from next_anchor."}}}
S["DeletionReport"] = {"type": "object", "required": ["deleted", "unknown", "deleted_by_type", "days_recomputed", "daily"], "properties": {
    "deleted": {"type": "array", "items": uuid, "description": "Deleted, in the order asked, then the readings of deleted correlations."},
    "unknown": {"type": "array", "items": uuid, "description": "Not stored (never, or deleted already): nothing done."},
    "deleted_by_type": {"type": "object", "additionalProperties": {"type": "integer"}},
    "days_recomputed": {"type": "integer", "deprecated": True, "description": "Always 0 since the days moved off the request path (days_pending); kept for older clients."}, "days_pending": {"type": "boolean", "description": "true: the days of this write are computed after the answer (a read of days computes them first; docs/api.md §Values and days)."}, "daily": DEPRECATED_DAILY}}
S["UserDeletion"] = {"type": "object", "required": ["user", "id", "rows", "samples", "health_store_bytes"], "properties": {
    "user": {"type": "string"}, "id": {"type": "string"},
    "rows": {"type": "object", "additionalProperties": {"type": "integer"}, "description": "Rows deleted per server table (user holds the token)."},
    "samples": {"type": "integer", "description": "Samples the user's health store held."},
    "health_store_bytes": {"type": "integer", "description": "Bytes of the health store's files removed."}}}
paths = doc["paths"]
paths["/v1/changes"] = {"get": op("The change feed of one type", "Additions and deletions (tombstones) of samples of one type after an anchor, in anchor order, as HKAnchoredObjectQuery reports them. A client that applies every page from any anchor (additions as upserts by UUID, deletions as removals) ends with exactly the stored samples. Decide whether to ask again by has_more. Scope: read.",
    dict(errors_read, **{"422": resp("UnprocessableRequest"), "200": ok(ref("ChangeFeed"))}),
    params=[q("type", "The type: a short name (steps, heart_rate, sleep…), a HealthKit type identifier (HK…) or HAE:<name>. A name that is neither known nor stored is a 422 naming the closest names.", True, {"type": "string", "minLength": 2, "maxLength": 200, "pattern": "^((HK|HAE:)[!-~]*|[a-z][a-z0-9_]*)$"}, "steps"),
            q("since", "The anchor of the last change seen (default 0: from the beginning).", schema={"type": "integer", "format": "int64", "minimum": 0, "maximum": 9223372036854775807}, example=0),
            q("limit", "At most this many changes, additions and deletions together (default 1000).", schema={"type": "integer", "minimum": 1, "maximum": 10000}, example=1000)],
    opid="getChanges", tags=["samples"])}
paths["/v1/samples"]["delete"] = op("Delete samples by UUID", "Deletes the samples with these UUIDs with everything attached (metadata, beats, routes, a correlation's readings), leaves tombstones in the change feed, and recomputes the local days they were on. Unknown or already deleted UUIDs are reported in unknown. Idempotency-Key as for POST. Scope: write.",
    dict(errors_read, **{"409": resp("Conflict"), "413": resp("ContentTooLarge"), "415": resp("UnsupportedMediaType"), "422": resp("Unprocessable"), "503": resp("StoreBusy"), "200": ok(ref("DeletionReport"))}),
    params=paths["/v1/samples"]["post"]["parameters"],
    body={"required": True, "content": {"application/json": {"schema": {"type": "object", "required": ["uuids"], "properties": {"uuids": {"type": "array", "minItems": 1, "maxItems": 10000, "items": uuid}}}}}},
    opid="deleteSamples", tags=["samples"])
paths["/v1/me"] = {"delete": op("Delete all my data", "Deletes every row, file, upload and token of the caller (health store, daily metrics, idempotency keys, import jobs, the user and token), on SQLite and PostgreSQL, and answers with what was removed. Refused with 409 while an import of the caller's is queued or running. The token stops working at once. Scope: write.",
    dict(errors_read, **{"409": resp("Conflict"), "200": ok(ref("UserDeletion"))}),
    params=[{"name": "Confirm-Delete", "in": "header", "required": True, "description": "Must be all-my-data.", "schema": {"type": "string", "const": "all-my-data"}}],
    opid="deleteMe", tags=["users"])}
S["HomeZone"] = {"type": "object", "required": ["zone"], "properties": {
    "zone": {"type": ["string", "null"], "description": "The IANA zone the person's days are counted in; null before any write named one (their days are UTC's)."},
    "previous": {"type": ["string", "null"], "description": "After PUT: the zone before it."},
    "days_pending": {"type": "boolean", "description": "After a change: every day is computed again in the new zone, after the answer (a read of days computes them first)."}}}
paths["/v1/me/zone"] = {
    "get": op("My home zone", "The zone the caller's days are counted in (docs/api.md, Home zone). Scope: read.",
        dict(errors_read, **{"200": ok(ref("HomeZone"))}), opid="getHomeZone", tags=["users"]),
    "put": op("Change my home zone", "Counts every day of the caller in this zone from now on: all days are computed again after the answer, and the stored days of other dates they overlap deleted. The same zone again changes nothing; 409 while an import of the caller's is queued or running. Scope: write; only the owner's token (a scoped token gets 403).",
        dict(errors_write, **{"200": ok(ref("HomeZone")), "409": resp("Conflict"), "422": resp("Unprocessable")}),
        body={"required": True, "content": {"application/json": {"schema": {"type": "object", "required": ["tz"], "properties": {"tz": ref("Zone")}}}}},
        opid="putHomeZone", tags=["users"])}
S["Device"] = {"type": "object", "required": ["id", "user_id", "name", "created_at", "last_sequence"], "properties": {
    "id": {"type": "string"}, "user_id": {"type": "string"}, "name": {"type": "string"},
    "created_at": {"type": "string", "format": "date-time"},
    "revoked_at": {"type": "string", "format": "date-time", "description": "Set once revoked: its batches get 403."},
    "last_sequence": {"type": "integer", "minimum": 0, "description": "Sequence of the last batch accepted (0: none)."},
    "last_batch_id": {"type": "string", "format": "uuid"},
    "last_batch_at": {"type": "string", "format": "date-time"}}}
S["DeviceKey"] = {"type": "object", "required": ["device", "key"], "properties": {
    "device": ref("Device"),
    "key": {"type": "object", "required": ["id", "secret", "algorithm"], "description": "Shown once: keep the secret on the device (mode 0600, or the Keychain).", "properties": {
        "id": {"type": "string"}, "secret": {"type": "string", "contentEncoding": "base64", "description": "32 bytes."}, "algorithm": {"const": "AES-256-GCM"}}},
    "previous_key_valid_until": {"type": "string", "format": "date-time", "description": "After a rotation: until when batches under the previous key are accepted."}}}
S["SyncEnvelope"] = {"type": "object", "required": ["v", "device_id", "key_id", "batch_id", "sequence", "created_at", "compression", "nonce", "ciphertext", "checksum"],
    "description": "A sealed batch (docs/sync.md): the JSON {\"items\": [...]} deflated, then AES-256-GCM under the device key with a fresh 96-bit nonce; every field in clear and the user id are the associated data.",
    "properties": {"v": {"const": 1}, "device_id": {"type": "string", "maxLength": 100}, "key_id": {"type": "string", "maxLength": 100},
        "batch_id": {"type": "string", "format": "uuid", "description": "Also the Idempotency-Key."},
        "sequence": {"type": "integer", "minimum": 1, "maximum": 9007199254740991, "description": "Larger than every earlier batch of the device."},
        "created_at": {"type": "string", "format": "date-time"}, "compression": {"const": "deflate"},
        "nonce": {"type": "string", "contentEncoding": "base64", "pattern": "^[A-Za-z0-9+/]{16}$", "description": "12 bytes."},
        "ciphertext": {"type": "string", "contentEncoding": "base64", "minLength": 24, "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", "description": "Ciphertext then the 16-byte tag."},
        "checksum": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "Hex SHA-256 of the plaintext JSON."}}}
S["SyncBatchAnswer"] = {"type": "object", "required": ["batch_id", "sequence", "added", "duplicates", "deleted", "unknown", "days_recomputed"], "properties": {
    "batch_id": {"type": "string", "format": "uuid"}, "sequence": {"type": "integer"},
    "added": {"type": "integer"}, "duplicates": {"type": "integer"}, "deleted": {"type": "integer"},
    "unknown": {"type": "integer", "description": "Deletions of UUIDs not stored here."}, "days_recomputed": {"type": "integer", "deprecated": True, "description": "Always 0 since the days moved off the request path (days_pending); kept for older clients."},
    "days_pending": {"type": "boolean", "description": "true: the days of this write are computed after the answer (a read of days computes them first; docs/api.md §Values and days)."},
    "already_applied": {"type": "boolean", "description": "true: the device's last batch sent again once its remembered answer was gone; acknowledged, not applied again (docs/sync.md §3)."}}}
device_id = {"name": "id", "in": "path", "required": True, "description": "The device's id.", "schema": {"type": "string", "minLength": 1, "maxLength": 100}}
paths["/v1/devices"] = {
    "post": op("Enrol a device", "Enrols a device for the caller and answers its id and its first 256-bit key, the only time the key is shown. Scope: write.",
        dict(errors_write, **{"201": ok(ref("DeviceKey"), "Enrolled"), "422": resp("Unprocessable")}),
        body={"required": True, "content": {"application/json": {"schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 100}}}}}},
        opid="postDevice", tags=["sync"]),
    "get": op("The caller's devices", "Every device of the caller, revoked ones included, oldest first. Scope: read.",
        dict(errors_read, **{"200": ok({"type": "object", "required": ["devices"], "properties": {"devices": {"type": "array", "items": ref("Device")}}})}),
        opid="getDevices", tags=["sync"])}
paths["/v1/devices/{id}"] = {"delete": op("Revoke a device", "Revokes the caller's device: its later batches get 403. Scope: write.",
    dict(errors_read, **{"200": ok(ref("Device")), "404": resp("NotFound")}), params=[device_id], opid="deleteDevice", tags=["sync"])}
paths["/v1/devices/{id}/keys"] = {"post": op("Rotate a device's key", "A new key for the caller's device (shown once); batches under the previous key are accepted until previous_key_valid_until (7 days by default). Scope: write.",
    dict(errors_read, **{"201": ok(ref("DeviceKey"), "Rotated"), "404": resp("NotFound")}), params=[device_id], opid="postDeviceKey", tags=["sync"])}
paths["/v1/sync/batches"] = {"post": op("Upload a sealed sync batch", "A SyncEnvelope from an enrolled device of the caller, with Idempotency-Key = its batch_id. Checked: the device (403 unknown, another user's or revoked), the key (403 unknown or retired past its grace), the sequence (422 when not after the device's last, unless it is that last batch sent again), the authentication of ciphertext and fields (422), inflation and size (413, 422), the checksum (422). Then the additions and deletions are applied in order in one transaction; the local days touched are recomputed after the answer (days_pending). Every refusal leaves the store unchanged. Idempotency as for POST /v1/samples. Scope: write.",
    dict(errors_write, **{"200": ok(ref("SyncBatchAnswer")), "409": resp("Conflict"), "422": resp("Unprocessable"), "503": resp("StoreBusy")}),
    params=[{"name": "Idempotency-Key", "in": "header", "required": True, "description": "The envelope's batch_id.", "schema": {"type": "string", "format": "uuid"}}, tz],
    body={"required": True, "content": {"application/json": {"schema": ref("SyncEnvelope")}}},
    opid="postSyncBatch", tags=["sync"])}
doc["tags"] += [{"name": "sync", "description": "Devices, their keys and sealed sync batches (docs/sync.md)."}]
doc["tags"] += [{"name": "samples", "description": "Sample identity, the change feed and deletions."}, {"name": "users", "description": "The caller's account and all their data."}]
# Kinds of health data (docs/api.md §Kinds of data, §Writing, per kind): a scoped token
# reads a kind only when its --kinds list names it and the person's consent allows it, and
# writes only its --write kinds; 403 otherwise.
doc["components"]["responses"]["Forbidden"]["description"] = (
    "The token lacks the scope; or may not read a kind of health data the request needs (not on its `--kinds` list, "
    "or not granted, or denied, by the person on the consent page); or may not write a kind the request adds or "
    "deletes (a scoped token writes only its `--write` kinds); or is a scoped token on a route only the owner's "
    "token may use. The detail names each kind and why.")
for route, method, needs in [
    ("/v1/samples", "post", "the kind of every sample in the body"),
    ("/v1/samples", "delete", "the kind of every sample found (checked in the deletion's transaction: refused, nothing is deleted)"),
    ("/v1/health-auto-export", "post", "the kind of every record in the body"),
    ("/v1/sync/batches", "post", "the kinds of its additions and of the samples its deletions find"),
    ("/v1/imports", "post", "every kind (an export may hold any)"),
    ("/v1/daily-metrics", "post", "steps, energy, sleep and heart (a day replaces the stored one whole)"),
]:
    paths[route][method]["description"] += f" Needs write for {needs} (403 otherwise)."
for route, method in [("/v1/me", "delete"), ("/v1/devices", "post"), ("/v1/devices", "get"), ("/v1/devices/{id}", "delete"), ("/v1/devices/{id}/keys", "post")]:
    paths[route][method]["description"] += " Only the owner's token: a scoped token gets 403."

def kinds(offered, desc):
    names = "|".join(offered)
    return q("types", desc, schema={"type": "string", "pattern": f"^({names})(,({names}))*$"}, example="steps,sleep")
withheld = {"HealthPipe-Withheld": {"description": "The kinds of health data left out because the token may not read them (absent when nothing was).", "schema": {"type": "string"}, "example": "energy,heart,sleep"}}
daily = paths["/v1/daily-metrics"]["get"]
daily["parameters"].append(kinds(["steps", "energy", "heart", "sleep"], "The kinds of data to include, each of which the token must be able to read (403 otherwise); the fields of the others are null. Default: every kind the token may read."))
daily["responses"]["200"]["headers"] = withheld
daily["description"] += " Fields of kinds the token may not read are null; HealthPipe-Withheld names those kinds."
snapshot = paths["/v1/snapshot"]["get"]
snapshot["responses"]["200"]["headers"] = {"HealthPipe-Note": {"description": "Without at, when the data ends before today: the snapshot is as of the newest sample.", "schema": {"type": "string"}, "example": "latest data 2024-06-01; the snapshot is as of its newest sample"}}
snapshot["parameters"].append(kinds(["steps", "energy", "activity", "heart", "sleep", "body", "workouts", "other"], "The kinds of data the snapshot may use, each of which the token must be able to read (403 otherwise). Default: every kind the token may read; the parts from the others are empty, with the reason \"not permitted\"."))
csv = paths["/v1/export.csv"]["get"]
csv["responses"]["200"]["headers"] = withheld
csv["description"] += " A named metric the token may not read is a 403; `all` means every metric it may read."
for route in ["/v1/workouts", "/v1/workouts/{id}"]:
    paths[route]["get"]["responses"]["200"]["headers"] = withheld
for route, needs in [("/v1/workouts", "workouts"), ("/v1/workouts/{id}", "workouts"), ("/v1/workouts/{id}/route", "workouts and activity (a route tells the distance)"), ("/v1/workouts/{id}/heart-rate", "workouts and heart"), ("/v1/sleep", "sleep"), ("/v1/readiness", "steps, energy, heart and sleep"), ("/v1/changes", "the type's kind of")]:
    paths[route]["get"]["description"] += f" Needs read access to {needs} data (403 otherwise)."
# Conditional reads (issue 37 §3; api.md §Conditional reads): every GET answering JSON has an ETag.
if_none_match = {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
                 "description": "ETags of answers the client holds (or *): a 304 without a body while the answer is the same."}
for route, methods in doc["paths"].items():
    get = methods.get("get")
    if not get or "application/json" not in get["responses"].get("200", {}).get("content", {}):
        continue
    get.setdefault("parameters", []).append(if_none_match)
    # A copy: some operations share one headers dict (HealthPipe-Withheld).
    get["responses"]["200"]["headers"] = dict(get["responses"]["200"].get("headers", {}), **{
        "ETag": {"description": "The answer's tag: the SHA-256 of its bytes (16 bytes, base64url), quoted.", "schema": {"type": "string"}},
        "Cache-Control": {"description": "private, no-cache: kept by the client, asked again with If-None-Match.", "schema": {"type": "string"}}})
    get["responses"]["304"] = {"description": "Not Modified: the answer is the one If-None-Match names (no body).",
                               "headers": {"ETag": {"schema": {"type": "string"}}}}
text = json.dumps(doc, indent=2, ensure_ascii=False)
path = os.path.join(os.path.dirname(__file__), '..', 'Sources/HealthServer/Resources/openapi.json')
with open(path, 'w') as out:
    out.write(text + '\n')
print(f'wrote {os.path.normpath(path)} ({len(text)} bytes)')
