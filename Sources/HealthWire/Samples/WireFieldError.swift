/// A field of a request body that cannot be what it says: the reason and a JSON Pointer
/// (RFC 6901) to the field. The server answers it as a 422; the reason never holds a value.
public struct WireFieldError: Error, CustomStringConvertible, Sendable {
    public var reason: String
    public var pointer: String

    public init(_ reason: String, pointer: String) {
        self.reason = reason
        self.pointer = pointer
    }

    public var description: String { "\(pointer): \(reason)" }
}
