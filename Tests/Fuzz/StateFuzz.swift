// libFuzzer target for the state file reader (`make fuzz`): any bytes are
// either a state file or nil, never a crash; a decoded one stays bounded
// and encodes again. Kept inputs live in state-regressions/.
import Foundation

public func fuzzState(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard var places = RememberedPlaces.decode(Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    places.remember(RememberedPlace(selectedPosition: 1, selectedID: "x"), for: "/fuzz.json", at: 1)
    if places.places.count > RememberedPlaces.maximumPlaces { fatalError("unbounded") }
    if places.encoded().flatMap(RememberedPlaces.decode) == nil { fatalError("does not read back") }
    return 0
}
