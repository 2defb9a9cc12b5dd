import Foundation
import HealthWire

/// Enrolling this device with the server (`POST /v1/devices`) and rotating its key
/// (`POST /v1/devices/{id}/keys`): the answers' keys go straight to the credentials file.
public enum DeviceEnrolment {
    /// Enrols a device named `name` for the token's user and records it, its key and the
    /// token in `state`. A plain `http://` server other than loopback is refused
    /// (``SyncServerURL``) before anything is sent.
    public static func enrol(
        server: URL, token: String, name: String, state: SyncState, transport: any SyncTransport, now: Date = Date()
    ) async throws -> Enrolment {
        try SyncServerURL.validate(server.absoluteString)
        // Before asking the server, so that no device is enrolled for a folder that cannot keep it.
        try state.refuseIfEnrolled()
        let body = try JSONEncoder().encode(DeviceEnrolmentRequest(name: name))
        let answer = try await call(
            transport, SyncRequest(method: "POST", path: "/v1/devices", headers: ["Content-Type": "application/json"], body: body)
        )
        _ = try SyncKey(id: answer.key.id, secret: answer.key.secret)
        let enrolment = Enrolment(
            server: server.absoluteString, userID: answer.device.userID, deviceID: answer.device.id,
            deviceName: answer.device.name, enrolledAt: answer.device.createdAt)
        try state.enrol(
            enrolment,
            credentials: Credentials(token: token, keys: [.init(id: answer.key.id, secret: answer.key.secret, createdAt: now)]))
        return enrolment
    }

    /// Asks the server for a new key and makes it the one new batches are sealed with; the
    /// server accepts the previous one for its grace period. Returns the new key's id.
    public static func rotateKey(state: SyncState, transport: any SyncTransport, now: Date = Date()) async throws -> String {
        let enrolment = try state.requireEnrolment()
        let answer = try await call(
            transport,
            SyncRequest(
                method: "POST", path: "/v1/devices/\(enrolment.deviceID)/keys", headers: ["Content-Type": "application/json"]))
        _ = try SyncKey(id: answer.key.id, secret: answer.key.secret)
        try state.addKey(.init(id: answer.key.id, secret: answer.key.secret, createdAt: now))
        return answer.key.id
    }

    private static func call(_ transport: any SyncTransport, _ request: SyncRequest) async throws -> DeviceKeyAnswer {
        let response = try await transport.send(request)
        guard response.status == 201 || response.status == 200 else {
            if response.status == 401 { throw SyncError(.reauthenticationRequired) }
            throw SyncError(.invalidResponse("HTTP \(response.status): \(response.problemDetail ?? "no detail")"))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let answer = try? decoder.decode(DeviceKeyAnswer.self, from: response.body) else {
            throw SyncError(.invalidResponse("the answer holds no device and key"))
        }
        return answer
    }
}
