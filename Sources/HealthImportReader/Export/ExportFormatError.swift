/// Content that is well-formed XML but not a usable Apple Health export.
struct ExportFormatError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
