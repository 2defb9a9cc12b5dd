import Foundation

/// The glue every fuzz target shares: SwiftPM links an executable's entry point as
/// `<Target>_main`, so each target's entry point hands its body to libFuzzer's driver here.
public enum FuzzDriver {
    /// The body of the one target in this process (libFuzzer's callback is a C function).
    nonisolated(unsafe) private static var body: (Data) -> Void = { _ in }

    /// Runs libFuzzer with its command line, calling `body` with each input.
    public static func run(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ body: @escaping (Data) -> Void
    ) -> CInt {
        Self.body = body
        var count = argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return LLVMFuzzerRunDriver(&count, &arguments) { data, size in
            FuzzDriver.body(data.map { Data(bytes: $0, count: size) } ?? Data())
            return 0
        }
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
