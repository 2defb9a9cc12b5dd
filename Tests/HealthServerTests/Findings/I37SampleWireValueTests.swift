import Foundation
import HealthCore
import HealthWire
import Testing

/// `POST /v1/samples` refused a quantity's `value: NaN` but took its `value_text` (stored and
/// counted without a value); a category sample posted as a number (HealthKit's raw integer)
/// was stored and read as nothing. Both are 422s naming the field now (the import refuses
/// the first too: I37QuantityAsTextTests).
@Suite struct I37SampleWireValueTests {
    /// The same on the server: `POST /v1/samples` took a step count with `value_text`.
    @Test func theServerRefusesAQuantityAsText() throws {
        let body = #"{"type": "steps", "start": 1717228800, "end": 1717229400, "value_text": "800", "source": "Watch"}"#
        let wire = try JSONDecoder().decode(SampleWire.self, from: Data(body.utf8))
        #expect {
            _ = try wire.sample(pointer: "/samples/3")
        } throws: { error in
            (error as? WireFieldError)?.pointer == "/samples/3/value_text"
        }
        let category =
            #"{"type": "HKCategoryTypeIdentifierMindfulSession", "start": 1717228800, "end": 1717229400, "value_text": "HKCategoryValueNotApplicable", "source": "Watch"}"#
        #expect(throws: Never.self) {
            _ = try JSONDecoder().decode(SampleWire.self, from: Data(category.utf8)).sample(pointer: "/s")
        }
    }

    /// Found by a probe of the server: a category sample posted with a number (`"type": "sleep",
    /// "value": 1`, HealthKit's raw integer) was stored and read as nothing: a 422 now.
    @Test func aCategoryPostedWithANumberIsRefused() throws {
        let body = #"{"type": "sleep", "start": 1556668800, "end": 1556697600, "value": 1, "unit": "count", "source": "P"}"#
        let wire = try JSONDecoder().decode(SampleWire.self, from: Data(body.utf8))
        #expect {
            _ = try wire.sample(pointer: "/samples/0")
        } throws: { error in
            (error as? WireFieldError)?.pointer == "/samples/0/value"
        }
    }
}
