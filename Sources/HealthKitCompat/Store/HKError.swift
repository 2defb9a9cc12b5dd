#if !canImport(HealthKit)
    /// HealthKit's errors, with HealthKit's codes.
    public struct HKError: Error, Hashable, Sendable, CustomStringConvertible {
        public enum Code: Int, Sendable {
            case errorHealthDataUnavailable = 1
            case errorHealthDataRestricted = 2
            case errorInvalidArgument = 3
            case errorAuthorizationDenied = 4
            case errorAuthorizationNotDetermined = 5
            case errorDatabaseInaccessible = 6
            case errorUserCanceled = 7
            case errorNoData = 11
        }

        public let code: Code
        /// What went wrong, without any health value.
        public let message: String

        public init(_ code: Code, message: String = "") {
            self.code = code
            self.message = message
        }

        public static var errorInvalidArgument: Code { .errorInvalidArgument }
        public static var errorAuthorizationDenied: Code { .errorAuthorizationDenied }
        public static var errorAuthorizationNotDetermined: Code { .errorAuthorizationNotDetermined }
        public static var errorDatabaseInaccessible: Code { .errorDatabaseInaccessible }
        public static var errorNoData: Code { .errorNoData }

        public var localizedDescription: String { description }

        public var description: String { message.isEmpty ? "HKError \(code)" : message }
    }
#endif
