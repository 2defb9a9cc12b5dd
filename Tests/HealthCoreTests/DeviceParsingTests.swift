import Foundation
import Testing

@testable import HealthCore

@Suite struct DeviceParsingTests {
    @Test func iPhoneWithCommaInHardware() throws {
        let device = try #require(
            Device(
                exportString:
                    "<<HKDevice: 0x283b92580>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone13,4, software:16.3.1>"
            ))
        #expect(
            device
                == Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware: "iPhone13,4", software: "16.3.1")
        )
        #expect(device.deviceClass == .iPhone)
    }

    @Test func appleWatchWithOldManufacturerSpelling() throws {
        let device = try #require(
            Device(
                exportString:
                    "<<HKDevice: 0x2835f0aa0>, name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch4,2, software:5.1.2>"
            ))
        #expect(device.manufacturer == "Apple")
        #expect(device.hardware == "Watch4,2")
        #expect(device.deviceClass == .appleWatch)
    }

    @Test func airPodsWithLocalIdentifierAndCreationDate() throws {
        let device = try #require(
            Device(
                exportString:
                    "<<HKDevice: 0x280f4c2d0>, name:AirPods Pro, manufacturer:Apple Inc., model:0x200e, localIdentifier:38:EC:0D:11:22:33-tacl, creation date:2020-06-01 06:06:25 +0000>"
            ))
        #expect(device.name == "AirPods Pro")
        #expect(device.model == "0x200e")
        #expect(device.localIdentifier == "38:EC:0D:11:22:33-tacl")
        #expect(device.creationDate == "2020-06-01 06:06:25 +0000")
        #expect(device.deviceClass == .other)
    }

    @Test func nameOnlyAndValuesWithCommasAndColons() throws {
        #expect(Device(exportString: "<<HKDevice: 0x0>, name:Apple Watch>") == Device(name: "Apple Watch"))
        let odd = try #require(Device(exportString: "<<HKDevice: 0x1>, name:Scale, v2: blue, manufacturer:ACME, Inc.>"))
        #expect(odd.name == "Scale, v2: blue")
        #expect(odd.manufacturer == "ACME, Inc.")
        #expect(Device(exportString: "") == nil)
    }

    @Test func addressIsStrippedForStableKeys() {
        #expect(Device.stripAddress("<<HKDevice: 0x283b92580>, name:iPhone>") == "name:iPhone")
        #expect(Device.stripAddress("<<HKDevice: 0x1>, name:iPhone>") == Device.stripAddress("<<HKDevice: 0xfff>, name:iPhone>"))
    }

    /// A device shares one box between copies; it must still behave as a value.
    @Test func aDeviceIsAValue() throws {
        let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", hardware: "Watch6,1")
        var copy = watch
        #expect(copy == watch && copy.hashValue == watch.hashValue)
        copy.software = "10.1"
        #expect(watch.software == nil && copy.software == "10.1")
        #expect(copy != watch)
        let rebuilt = Device(name: "Apple Watch", manufacturer: "Apple Inc.", hardware: "Watch6,1", software: "10.1")
        #expect(rebuilt == copy && Set([rebuilt, copy]).count == 1)
        let json = String(decoding: try JSONEncoder().encode(watch), as: UTF8.self)
        #expect(json.contains(#""hardware":"Watch6,1""#) && json.contains(#""manufacturer":"Apple Inc.""#))
        #expect(try JSONDecoder().decode(Device.self, from: Data(json.utf8)) == watch)
        #expect(String(describing: watch).contains("hardware: Optional(\"Watch6,1\")"))
    }
}
