import HealthContext
import HealthCore
import HealthDaily
import HealthReadiness
import HealthServerRecords
import HealthWire
import Hummingbird

// The answers handlers return: written by the request context's ``HealthResponseEncoder``.
// The types live where their meaning does (the wire, the algorithms); that they are HTTP
// answers is this server's business.

extension UpsertCounts: ResponseEncodable {}
extension IngestReport: ResponseEncodable {}
extension UserDeletionReport: ResponseEncodable {}
extension HomeZoneAnswer: ResponseEncodable {}
extension DeviceKeyAnswer: ResponseEncodable {}
extension SyncDevice: ResponseEncodable {}
extension ImportJob: ResponseEncodable {}
extension WorkoutListAnswer: ResponseEncodable {}
extension WorkoutDetailAnswer: ResponseEncodable {}
extension WorkoutHeartRateAnswer: ResponseEncodable {}
extension HealthContextSnapshot: ResponseEncodable {}
extension ReadinessScore: ResponseEncodable {}
