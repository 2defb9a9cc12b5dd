import Foundation
import HealthSync
import Testing

/// Finding L9 (issue 32): `devices enrol` took the owner's token on the command line, where
/// `ps` shows it to every user of the machine, and sent it over plain `http://` to any host.
/// Now the token comes from `HEALTHPIPE_TOKEN` or one line of standard input, and a server
/// URL is `https://`, or `http://` to loopback only — for `devices enrol` and `sync` alike.
@Suite struct L9EnrolmentTests {
    @Test func l9_plainHTTPOnlyToLoopback() throws {
        for text in [
            "http://127.0.0.1:8080", "http://localhost", "http://LOCALHOST:8080/", "http://[::1]:1", "http://127.8.9.10",
            "http://[0:0:0:0:0:0:0:1]:8080", "https://example.com", "https://example.com:8443",
            "HTTPS://health.example.org", "https://10.0.0.2", "https://[2001:db8::1]:443",
        ] {
            _ = try SyncServerURL.validate(text)  // a refusal's error names the URL
        }
        for text in [
            "http://example.com", "http://example.com:8080", "http://10.0.0.2:8080", "http://128.0.0.1",
            "http://127.0.0.1.example.com", "http://localhost.example.com", "http://[::2]", "http://[2001:db8::1]",
            "http://0.0.0.0:8080", "ftp://example.com", "ftp://127.0.0.1", "file:///tmp/x", "example.com", "https://", "",
        ] {
            #expect(throws: SyncServerURL.Refused.self, "\(text)") { try SyncServerURL.validate(text) }
        }
        // The refusal says what to use.
        let refusal = #expect(throws: SyncServerURL.Refused.self) { try SyncServerURL.validate("http://example.com") }
        #expect(refusal?.description.contains("https://") == true)
        let ftp = #expect(throws: SyncServerURL.Refused.self) { try SyncServerURL.validate("ftp://example.com") }
        #expect(ftp?.description.contains("https://") == true)
    }

    @Test func l9_loopbackHosts() {
        for host in ["localhost", "127.0.0.1", "127.255.255.254", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"] {
            #expect(SyncServerURL.isLoopback(host: host), "\(host)")
        }
        for host in [
            "example.com", "128.0.0.1", "126.0.0.1", "127.0.0", "127.0.0.256", "127.0.0.1.1", "0127.0.0.1", "::",
            "::2", "1::1", "::ffff:10.0.0.1", "fe80::1", "local", "",
        ] {
            #expect(!SyncServerURL.isLoopback(host: host), "\(host)")
        }
    }

    @Test func l9_theTokenComesFromTheEnvironmentOrOneLineOfStandardInput() throws {
        let token = "hp_0123456789ab_" + String(repeating: "A", count: 43)
        let environment = [EnrolmentToken.environmentVariable: "  \(token)\n"]
        // The environment, trimmed.
        #expect(try EnrolmentToken.read(commandLine: nil, fromStandardInput: false, environment: environment) == token)
        // One line of standard input, trimmed; nothing else is read.
        var lines = ["\t\(token) \r", "second line"]
        let read: () -> String? = { lines.isEmpty ? nil : lines.removeFirst() }
        #expect(try EnrolmentToken.read(commandLine: nil, fromStandardInput: true, environment: [:], readLine: read) == token)
        #expect(lines == ["second line"])
        // --token-stdin wins over the environment; --token (warned about by the command) over it too.
        #expect(
            try EnrolmentToken.read(
                commandLine: nil, fromStandardInput: true, environment: [EnrolmentToken.environmentVariable: "other"],
                readLine: { token }) == token)
        #expect(
            try EnrolmentToken.read(
                commandLine: " \(token) ", fromStandardInput: false,
                environment: [EnrolmentToken.environmentVariable: "other"]) == token)
        // Nothing, or only white space: refused, saying where to put it.
        #expect(throws: EnrolmentToken.Missing.self) {
            try EnrolmentToken.read(commandLine: nil, fromStandardInput: false, environment: [:])
        }
        #expect(throws: EnrolmentToken.Missing.self) {
            try EnrolmentToken.read(
                commandLine: nil, fromStandardInput: false, environment: [EnrolmentToken.environmentVariable: " \n"])
        }
        #expect(throws: EnrolmentToken.Missing.self) {
            try EnrolmentToken.read(commandLine: nil, fromStandardInput: true, environment: environment, readLine: { nil })
        }
        let blank = #expect(throws: EnrolmentToken.Missing.self) {
            try EnrolmentToken.read(commandLine: nil, fromStandardInput: true, environment: [:], readLine: { "   " })
        }
        #expect(blank?.description.contains("HEALTHPIPE_TOKEN") == true)
        #expect(blank?.description.contains("--token-stdin") == true)
    }

    @Test func l9_enrolmentRefusesPlainHTTPToAnotherHostBeforeSending() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-l9-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = try SyncState(folder: folder.path)
        let transport = L9CountingTransport()
        await #expect(throws: SyncServerURL.Refused.self) {
            try await DeviceEnrolment.enrol(
                server: URL(string: "http://health.example.org")!, token: "hp_x", name: "test", state: state,
                transport: transport)
        }
        #expect(transport.count == 0)
    }
}

/// A transport that answers nothing and counts what it was asked.
final class L9CountingTransport: SyncTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent = 0
    var count: Int { lock.withLock { sent } }

    func send(_ request: SyncRequest) async throws -> SyncResponse {
        lock.withLock { sent += 1 }
        return SyncResponse(status: 500, headers: [:], body: Data())
    }
}
