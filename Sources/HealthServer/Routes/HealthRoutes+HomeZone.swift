import Foundation
import HealthCore
import HealthWire
import Hummingbird

/// The person's home zone (docs/api.md §Home zone): the one zone all their days are
/// counted in, so that no two of their days overlap.
extension HealthRoutes {
    var homeZoneRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection()
            .get("me/zone", use: getHomeZone)
            .put("me/zone", use: putHomeZone)
    }

    /// `GET /v1/me/zone`: `{"zone"}`, `null` before any write named one.
    func getHomeZone(_ request: Request, _ context: AuthenticatedContext) async throws -> HomeZoneAnswer {
        let user = try context.require(.read)
        return HomeZoneAnswer(zone: try await repositories.users.homeZone(userID: user.id))
    }

    /// `PUT /v1/me/zone` `{"tz": "Asia/Tokyo"}` (the owner's): the person's days are counted
    /// in that zone from now on, every stored day included — all are computed again after
    /// the answer (`days_pending`), the old zone's days they overlap deleted, under the
    /// person's days lock so that no computation in the old zone lands after it.
    func putHomeZone(_ request: Request, _ context: AuthenticatedContext) async throws -> HomeZoneAnswer {
        let user = try context.requireOwner(.write, to: "change the home zone")
        let body = try await context.requestDecoder.decode(HomeZoneRequest.self, from: request, context: context)
        let zone = try Self.zone(named: body.tz, pointer: "/tz").identifier
        let answer = try await repositories.writing(user.id) { database in
            try await database.withDaysLock {
                let previous = try await repositories.users.homeZone(userID: user.id)
                guard previous != zone else { return HomeZoneAnswer(zone: zone, previous: previous) }
                // An import's days are computed only by its runner when it ends: the days
                // deleted here would be missing from every read until then.
                guard try await repositories.imports.unfinishedImportCount(userID: user.id) == 0 else {
                    throw Problem(
                        .conflict, "Import in progress",
                        detail: "an import of yours is queued or running; change the home zone once it has ended")
                }
                // In this order, so that a failure leaves days a computation makes whole (in
                // the zone then stored) and a retry still changes the zone. The computation
                // replaces each day and deletes the old zone's days its new ones overlap.
                try await database.markDirty([DirtySpan.everything], zone: nil)
                _ = try await repositories.users.setHomeZone(zone, userID: user.id, onlyIfUnset: false)
                return HomeZoneAnswer(zone: zone, previous: previous, daysPending: true)
            }
        }
        if answer.daysPending == true { days.add(user.id) }
        return answer
    }
}
