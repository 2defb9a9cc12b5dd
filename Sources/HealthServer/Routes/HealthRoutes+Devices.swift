import Foundation
import HealthServerRecords
import HealthWire
import Hummingbird

/// Devices enrolled for sync and their keys (docs/sync.md §Keys).
extension HealthRoutes {
    var deviceRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection()
            .post("devices", use: postDevice)
            .get("devices", use: getDevices)
            .delete("devices/{id}", use: deleteDevice)
            .post("devices/{id}/keys", use: postDeviceKey)
    }

    /// `POST /v1/devices` `{"name": "…"}`: enrols a device for the caller and answers its id
    /// and its first key — the only time the key's secret is shown. Devices are the owner's
    /// to manage: a scoped token gets a 403 on every device route.
    func postDevice(_ request: Request, _ context: AuthenticatedContext) async throws -> EditedResponse<DeviceKeyAnswer> {
        let user = try context.requireOwner(.write, to: "enrol devices")
        let body = try await context.requestDecoder.decode(DeviceEnrolmentRequest.self, from: request, context: context)
        let name = body.name.trimmingCharacters(in: .whitespacesAndNewlines)
        // Code points, as JSON Schema's maxLength counts them (not grapheme clusters).
        guard !name.isEmpty, body.name.unicodeScalars.count <= 100 else {
            throw Problem.unprocessable("name the device in 1–100 characters", pointer: "/name")
        }
        let device = SyncDevice(id: UUID().uuidString.lowercased(), userID: user.id, name: name, createdAt: configuration.clock())
        let key = SyncKey.generate()
        try await repositories.devices.addDevice(device, key: key)
        return EditedResponse(
            status: .created, response: DeviceKeyAnswer(device: device, key: DeviceKeyWire(key), previousKeyValidUntil: nil))
    }

    /// `GET /v1/devices`: the caller's devices, revoked ones included.
    func getDevices(_ request: Request, _ context: AuthenticatedContext) async throws -> [String: [SyncDevice]] {
        let user = try context.requireOwner(.read, to: "list devices")
        return ["devices": try await repositories.devices.devices(userID: user.id)]
    }

    /// `DELETE /v1/devices/{id}`: revokes the caller's device; its later batches get 403.
    func deleteDevice(_ request: Request, _ context: AuthenticatedContext) async throws -> SyncDevice {
        let user = try context.requireOwner(.write, to: "revoke devices")
        // Ids are lower-case UUIDs; one written in upper case is the same device.
        let id = try context.parameters.require("id").lowercased()
        guard let device = try await repositories.devices.revokeDevice(id: id, userID: user.id, at: configuration.clock())
        else { throw Self.noSuchDevice(id) }
        return device
    }

    /// `POST /v1/devices/{id}/keys`: a new key for the caller's device; the previous one is
    /// accepted for ``ServerConfiguration/keyGracePeriod`` more.
    func postDeviceKey(_ request: Request, _ context: AuthenticatedContext) async throws -> EditedResponse<DeviceKeyAnswer> {
        let user = try context.requireOwner(.write, to: "replace device keys")
        // Ids are lower-case UUIDs; one written in upper case is the same device.
        let id = try context.parameters.require("id").lowercased()
        guard let device = try await repositories.devices.device(id: id), device.userID == user.id else {
            throw Self.noSuchDevice(id)
        }
        guard device.revokedAt == nil else {
            throw Problem(.forbidden, "Device revoked", detail: "device \(id) is revoked; enrol a new device")
        }
        let now = configuration.clock()
        let key = SyncKey.generate()
        try await repositories.devices.addKey(key, deviceID: id, at: now)
        return EditedResponse(
            status: .created,
            response: DeviceKeyAnswer(
                device: device, key: DeviceKeyWire(key),
                previousKeyValidUntil: now.addingTimeInterval(configuration.keyGracePeriod)))
    }

    static func noSuchDevice(_ id: String) -> Problem {
        Problem(.notFound, "No such device", detail: "you have no device \(id.prefix(64)); GET /v1/devices lists yours")
    }
}
