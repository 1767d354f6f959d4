package sim

import "errors"

// Sentinel errors of the virtual phone.
var (
	// errConfig reports an invalid Config.
	errConfig = errors.New("sim: invalid config")
	// ErrFaultSpec reports a fault spec string that cannot be parsed.
	ErrFaultSpec = errors.New("sim: invalid fault spec")
	// ErrAppSpec reports an app declaration that cannot be loaded.
	ErrAppSpec = errors.New("sim: invalid app spec")
	// errNotFound reports a path, package or collection the phone does not have.
	errNotFound = errors.New("sim: not found")
	// errDropped is wrapped (with wire.ErrDropConnection) by Shell when the "drop" fault
	// cuts a client connection mid-command.
	errDropped = errors.New("sim: connection dropped by fault injection")
	// errUnknownSerial reports a Farm lookup for a serial it does not host.
	errUnknownSerial = errors.New("sim: unknown serial")
)
