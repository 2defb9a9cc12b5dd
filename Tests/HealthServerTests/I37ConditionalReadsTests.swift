import Foundation
import HealthCore
import HealthServerRecords
import HealthSynth
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// Issue 37 §3: reads carry an `ETag`; a client that polls with `If-None-Match` gets a 304
/// without a body until the answer changes.
@Suite struct I37ConditionalReadsTests {
    static func get(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ uri: String, ifNoneMatch: String? = nil
    ) async throws -> (status: HTTPResponse.Status, tag: String?, body: String, cache: String?) {
        var headers = harness.headers("alice", json: false)
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        return try await client.execute(uri: uri, method: .get, headers: headers) { response in
            (response.status, response.headers[.eTag], String(buffer: response.body), response.headers[.cacheControl])
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func i37_aPollingClientGetsA304UntilTheDaysChange(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let (status, _) = try await I37DaysOffTheRequestPathTests.post(client, harness, steps: 1000, minute: 0, key: "a")
            #expect(status == .ok)
            let uri = "/v1/daily-metrics?from=2024-06-01&to=2024-06-02"
            let first = try await Self.get(client, harness, uri)
            #expect(first.status == .ok && first.body.contains("\"steps_normalized\":1000"))
            let tag = try #require(first.tag)
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 24, "\(tag)")
            #expect(first.cache == "private, no-cache")
            for condition in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let again = try await Self.get(client, harness, uri, ifNoneMatch: condition)
                #expect(again.status == .notModified && again.body.isEmpty && again.tag == tag, "\(condition)")
            }
            #expect(try await Self.get(client, harness, uri, ifNoneMatch: "\"other\"").status == .ok)
            // Another answer of the same days (sleep only: the steps withheld): another tag.
            let steps = try await Self.get(client, harness, uri + "&types=sleep")
            #expect(steps.status == .ok && steps.tag != nil && steps.tag != tag)
            // A write changes the day: the old tag gets the new answer.
            _ = try await I37DaysOffTheRequestPathTests.post(client, harness, steps: 500, minute: 30, key: "b")
            let changed = try await Self.get(client, harness, uri, ifNoneMatch: tag)
            #expect(changed.status == .ok && changed.body.contains("\"steps_normalized\":1500") && changed.tag != tag)
            // Readiness too; the CSV export streams and carries none.
            let readiness = try await Self.get(client, harness, "/v1/readiness?date=2024-06-02")
            let readinessTag = try #require(readiness.tag)
            #expect(
                try await Self.get(client, harness, "/v1/readiness?date=2024-06-02", ifNoneMatch: readinessTag).status
                    == .notModified)
            let csv = try await Self.get(client, harness, "/v1/export.csv?from=2024-06-01&to=2024-06-02")
            #expect(csv.status == .ok && csv.tag == nil)
        }
    }

    @Test func i37_ifNoneMatchIsComparedWeaklyAndListsAreRead() {
        let tag = "\"abc\""
        #expect(ConditionalGetMiddleware<HealthRequestContext>.matches("\"abc\"", tag))
        #expect(ConditionalGetMiddleware<HealthRequestContext>.matches("W/\"abc\"", tag))
        #expect(ConditionalGetMiddleware<HealthRequestContext>.matches("\"x\" , W/\"abc\"", tag))
        #expect(ConditionalGetMiddleware<HealthRequestContext>.matches("*", tag))
        #expect(!ConditionalGetMiddleware<HealthRequestContext>.matches("\"abcd\"", tag))
        #expect(!ConditionalGetMiddleware<HealthRequestContext>.matches("abc", tag))
    }

    /// The tag's base64url, written directly, is Foundation's base64 with `+/` made `-_`
    /// and the padding dropped, for every length and random bytes.
    @Test func i37_base64URLIsFoundationsWithTheURLAlphabet() {
        var random = SplitMix(seed: 64)
        for length in 0..<48 {
            for _ in 0..<50 {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
                #expect(Secrets.base64URL(bytes) == expected)
            }
        }
    }
}
