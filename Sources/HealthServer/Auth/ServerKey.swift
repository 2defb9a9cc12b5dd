import Crypto
import Foundation
import HealthServerRecords

/// The server's own 256-bit key, kept outside the database, under which device keys are
/// sealed at rest (``SealedDeviceRepository``; docs/sync.md §Device keys at rest).
///
/// It comes from `HEALTHPIPE_SERVER_KEY` (base64) when that is set, else from a file
/// (`serve --server-key-file`, default `<data-dir>/server.key`: one line of base64) that
/// only its owner may read; a missing file is created, mode 0600, with a fresh key.
///
/// ```swift
/// let (key, origin) = try ServerKey.load(file: "data/server.key")
/// repositories.devices = SealedDeviceRepository(inner: repositories.devices, key: key)
/// ```
public struct ServerKey: Sendable {
    /// The environment variable that, when set, holds the key (base64) and wins over any file.
    public static let environmentVariable = "HEALTHPIPE_SERVER_KEY"
    /// The key file's name in the data folder when no file is named.
    public static let defaultFileName = "server.key"

    /// The 32 secret bytes.
    public let bytes: Data
    /// 4 bytes that name the key in every secret it seals, so a secret sealed under another
    /// key is told apart from a damaged one: the first bytes of HMAC-SHA256 of a constant
    /// under the key, which tell nothing of the key itself.
    public let fingerprint: Data

    /// A key from its 32 bytes.
    public init(bytes: Data) throws {
        guard bytes.count == 32 else { throw ServerKeyError("a server key is 32 bytes, not \(bytes.count)") }
        self.bytes = Data(bytes)
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("healthpipe server key fingerprint v1".utf8), using: SymmetricKey(data: bytes))
        fingerprint = Data(Array(code).prefix(4))
    }

    /// A key from the base64 of its 32 bytes (whitespace around it ignored).
    public init(base64 text: String) throws {
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32
        else { throw ServerKeyError("a server key is the base64 of 32 bytes") }
        try self.init(bytes: bytes)
    }

    /// A fresh random key (the system's secure generator).
    public static func generate() -> ServerKey {
        let key = SymmetricKey(size: .bits256)
        return try! ServerKey(bytes: key.withUnsafeBytes { Data($0) })
    }

    /// The key as its file holds it.
    public var base64: String { bytes.base64EncodedString() }

    /// The fingerprint in hex, to name the key in messages and logs.
    public var fingerprintHex: String { fingerprint.map { String(format: "%02x", $0) }.joined() }

    var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }

    /// Where a loaded key came from.
    public enum Origin: Sendable, Equatable {
        /// `HEALTHPIPE_SERVER_KEY`.
        case environment
        /// The file, which existed.
        case file(String)
        /// The file, which did not exist and now holds a fresh key.
        case created(String)
    }

    /// The key of `environment`'s `HEALTHPIPE_SERVER_KEY` when set (not empty), else of
    /// `file`, which is created (0600, with a fresh key) when missing. Throws, naming the
    /// variable or the file but never the key, when the variable is not a key, or the file
    /// gives its group or others any access or does not hold one.
    public static func load(
        file: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (key: ServerKey, origin: Origin) {
        if let text = environment[environmentVariable], !text.isEmpty {
            guard let key = try? ServerKey(base64: text) else {
                throw ServerKeyError("\(environmentVariable) must be the base64 of 32 bytes (`head -c 32 /dev/urandom | base64`)")
            }
            return (key, .environment)
        }
        if FileManager.default.fileExists(atPath: file) { return (try read(file: file), .file(file)) }
        if let key = try create(file: file) { return (key, .created(file)) }
        // Another process created it in between.
        return (try read(file: file), .file(file))
    }

    /// The key in `file`, which must exist, be readable by its owner alone and hold the
    /// base64 of 32 bytes.
    public static func read(file: String) throws -> ServerKey {
        guard FileManager.default.fileExists(atPath: file) else { throw ServerKeyError("there is no server key file \(file)") }
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw ServerKeyError(
                "the server key file \(file) gives its group or others access (mode \(String(mode & 0o777, radix: 8))); "
                    + "`chmod 600 \(file)`, and make a new key and rotate to it if others may have read it")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ServerKeyError("the server key file \(file) cannot be read")
        }
        guard let key = try? ServerKey(base64: String(decoding: data, as: UTF8.self)) else {
            throw ServerKeyError(
                "the server key file \(file) must hold the base64 of 32 bytes on one line (`head -c 32 /dev/urandom | base64`)")
        }
        return key
    }

    /// Creates `file` (and its folder, 0700, when missing) with mode 0600 holding a fresh
    /// key; `nil` when the file exists already (it is left alone).
    public static func create(file: String) throws -> ServerKey? {
        let folder = (file as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // O_EXCL: never over a key someone else has just written; 0600 from the first byte.
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return nil }
            throw ServerKeyError("cannot create the server key file \(file): \(String(cString: strerror(errno)))")
        }
        let key = generate()
        let text = Data((key.base64 + "\n").utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == text.count, synced == 0 else {
            unlink(file)
            throw ServerKeyError("cannot write the server key file \(file)")
        }
        return key
    }
}

/// A server key that cannot be used, or device keys it cannot open: what is wrong and
/// what to do, never a key.
public struct ServerKeyError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
