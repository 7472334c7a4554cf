// libFuzzer target for the vCard and LDIF readers and the in-place
// writers (`make fuzz`): any bytes are read as vCards and as LDIF, in
// chunks of a size the first byte picks and with a small record limit,
// never a crash; each card read is edited in place and must read back.
// Built like LoaderFuzz.swift; kept inputs live in fields-regressions/
// and are replayed by RosterStoreTests' FieldFuzzRegressionTests.
public func fuzzFieldReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    FieldReadersFuzzing.check(bytes)
    return 0
}
