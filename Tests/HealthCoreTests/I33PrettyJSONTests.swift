import Foundation
import Testing

@testable import HealthCore

/// Issue 33 §6: what the CLI prints as JSON has no `[\n\n]` for an empty list.
@Suite struct I33PrettyJSONTests {
    @Test func i33_edges_emptyListsAndObjectsPrintAsSuch() throws {
        let printed =
            "{\n  \"naps\" : [\n\n  ],\n  \"meta\" : {\n  },\n  \"note\" : \"[  ] and { }\",\n  \"list\" : [\n    1\n  ]\n}"
        #expect(
            PrettyJSON.collapsingEmpty(printed)
                == "{\n  \"naps\" : [],\n  \"meta\" : {},\n  \"note\" : \"[  ] and { }\",\n  \"list\" : [\n    1\n  ]\n}")
        // An escaped quote does not end a string.
        #expect(PrettyJSON.collapsingEmpty(#"["a \"[ ]\" b", [ ]]"#) == #"["a \"[ ]\" b", []]"#)
        #expect(PrettyJSON.collapsingEmpty("[]") == "[]")

        struct Night: Encodable {
            var naps: [Int] = []
            var stages: [String: Double] = [:]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let text = try PrettyJSON.text(Night(), encoder: encoder)
        #expect(text.range(of: #"[\[{]\s+[\]}]"#, options: .regularExpression) == nil, "\(text)")
        #expect(text.contains(#""naps" : []"#) && text.contains(#""stages" : {}"#), "\(text)")
    }
}
