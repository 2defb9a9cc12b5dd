/// The version of this build of HealthPipeline: what `healthpipe --version` prints and the
/// MCP server announces. Raised with every release.
public enum HealthPipelineVersion {
    public static let current = "1.0.0"
}
