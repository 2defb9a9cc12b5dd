import Foundation

/// Where `healthpipe devices enrol` gets the owner's token. A command-line argument is
/// readable by every user of the machine (`ps`, `/proc/<pid>/cmdline`), so the token comes
/// from the environment (`HEALTHPIPE_TOKEN`) or one line of standard input
/// (`--token-stdin`); `--token` still works, with a warning.
public enum EnrolmentToken {
    /// The environment variable the token is read from.
    public static let environmentVariable = "HEALTHPIPE_TOKEN"

    /// The token, trimmed of surrounding white space: from one line of standard input when
    /// `fromStandardInput` (`readLine` gives the line), else `commandLine` (`--token`), else
    /// `environment[HEALTHPIPE_TOKEN]`. Throws ``Missing`` when the chosen source is empty or
    /// none gives one.
    public static func read(
        commandLine: String?, fromStandardInput: Bool,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        readLine: () -> String? = { Swift.readLine(strippingNewline: true) }
    ) throws -> String {
        if fromStandardInput {
            guard let line = readLine(), let token = trimmed(line) else {
                throw Missing(reason: "standard input gave no token (--token-stdin reads one line)")
            }
            return token
        }
        if let commandLine {
            guard let token = trimmed(commandLine) else { throw Missing(reason: "--token is empty") }
            return token
        }
        guard let token = environment[environmentVariable].flatMap(trimmed) else {
            throw Missing(reason: "no token given")
        }
        return token
    }

    private static func trimmed(_ text: String) -> String? {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    /// No token where one was looked for.
    public struct Missing: Error, CustomStringConvertible, Equatable {
        public let reason: String
        public var description: String {
            "\(reason); set HEALTHPIPE_TOKEN, or give it on standard input with --token-stdin "
                + "(healthpipe devices enrol --server URL --token-stdin < token.txt)"
        }
    }
}
