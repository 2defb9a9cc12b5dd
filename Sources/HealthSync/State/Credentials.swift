import Foundation
import HealthWire

/// The device's secrets — the bearer token and its sync keys, newest first — in
/// `credentials.json` with mode 0600 in the state folder (on Apple platforms the app keeps
/// them in the Keychain, `kSecAttrAccessibleAfterFirstUnlock`: docs/sync.md §Keys).
public struct Credentials: Codable, Sendable {
    public struct Key: Codable, Sendable {
        public var id: String
        public var secret: Data
        public var createdAt: Date

        public init(id: String, secret: Data, createdAt: Date) {
            self.id = id
            self.secret = secret
            self.createdAt = createdAt
        }

        enum CodingKeys: String, CodingKey {
            case id, secret
            case createdAt = "created_at"
        }
    }

    public var token: String
    /// Newest first: the first seals new batches.
    public var keys: [Key]

    public init(token: String, keys: [Key]) {
        self.token = token
        self.keys = keys
    }

    /// The key new batches are sealed with.
    public func currentKey() throws -> SyncKey {
        guard let key = keys.first else { throw SyncError(.notEnrolled("the credentials hold no key")) }
        return try SyncKey(id: key.id, secret: key.secret)
    }

    static let fileName = "credentials.json"

    /// Reads the file; refuses one that others can read.
    static func read(folder: String) throws -> Credentials {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw SyncError(.notEnrolled("no \(fileName) in \(folder)"))
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw SyncError(
                .state("\(path) is readable by others (mode \(String(mode, radix: 8))); `chmod 600` it, or enrol again"))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(Credentials.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw SyncError(.state("\(path) is not a credentials file"))
        }
    }

    /// Writes the file with mode 0600: to a new file created 0600, then renamed over the old.
    func write(folder: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(self)
        let path = (folder as NSString).appendingPathComponent(Self.fileName)
        let temporary = path + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        guard FileManager.default.createFile(atPath: temporary, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw SyncError(.state("cannot write \(temporary)"))
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, path) == 0 else { throw SyncError(.state("cannot replace \(path)")) }
    }
}
