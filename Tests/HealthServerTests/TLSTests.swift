import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import NIOSSL
import Testing

/// `serve --tls-cert --tls-key`: the same routes over HTTPS, and clear errors for bad files.
@Suite struct TLSTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tls")

    @Test func theServerAnswersOverHTTPS() async throws {
        let tls = try ServerTLS.configuration(
            certificate: Self.folder.appendingPathComponent("localhost.crt").path,
            key: Self.folder.appendingPathComponent("localhost.key").path)
        let harness = try await ServerHarness(.sqlite) {
            $0.tls = tls
            $0.port = 0
        }
        defer { harness.cleanUp() }
        // A live server on a free port, and a real HTTPS client (certificate not verified).
        try await harness.app.test(.ahc(.https)) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-02", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "[]")
            }
        }
    }

    /// A TLS configuration the server cannot use (here: a key file that does not exist)
    /// stops the build with the reason; it is never swallowed (defect 3: `try?` around the
    /// builder, whose context is only made when the server starts, hid it).
    @Test func anUnusableTLSConfigurationStopsTheStart() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).pem").path
        let chain = try NIOSSLCertificate.fromPEMFile(Self.folder.appendingPathComponent("localhost.crt").path)
        var configuration = ServerConfiguration()
        configuration.tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .file(missing))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteServerStore(path: folder.appendingPathComponent("server.sqlite").path)
        do {
            let repositories = ServerRepositories(
                store: store, healthStores: SQLiteUserHealthStores(folder: folder.path), dataFolder: folder.path)
            _ = try buildApplication(configuration: configuration, repositories: repositories)
            Issue.record("an unusable TLS configuration must not give a (plain HTTP) server")
        } catch {
            #expect("\(error)".hasPrefix("cannot serve HTTPS, so the server does not start: "))
        }
    }

    @Test func badFilesAreNamed() throws {
        let certificate = Self.folder.appendingPathComponent("localhost.crt").path
        let key = Self.folder.appendingPathComponent("localhost.key").path
        #expect(throws: ServerTLS.TLSFileError.self) { try ServerTLS.configuration(certificate: "/nonexistent.pem", key: key) }
        do {
            _ = try ServerTLS.configuration(certificate: key, key: key)
            Issue.record("a key is not a certificate")
        } catch let error as ServerTLS.TLSFileError {
            #expect(error.path == key)
            #expect(error.description.contains("not a readable PEM certificate"))
        }
        do {
            _ = try ServerTLS.configuration(certificate: certificate, key: certificate)
            Issue.record("a certificate is not a key")
        } catch let error as ServerTLS.TLSFileError {
            #expect(error.description.hasPrefix(certificate + ": not a readable PEM private key"))
        }
    }
}
