package hubtest

import "time"

// FaultKind is a way for the server to fail a file download.
type FaultKind int

// The faults the server can inject into a GET of file content.
const (
	FaultCut     FaultKind = iota // send At body bytes, then close the connection
	FaultStatus                   // answer Status (e.g. 500, 401, 404) instead
	FaultStall                    // send At body bytes, then nothing for Stall (or until the client leaves)
	FaultCorrupt                  // send the body with its first byte changed
)

// Fault makes GETs of a file's content fail.
type Fault struct {
	Kind   FaultKind
	File   string        // repo path of the file it hits; "" hits every file
	At     int64         // FaultCut, FaultStall: body bytes sent first
	Status int           // FaultStatus: the status code
	Stall  time.Duration // FaultStall: how long; 30 s when zero
	Times  int           // requests it hits before it goes away; 0 hits all
}

// Inject adds a fault. Faults are tried in the order they were added; the
// first that matches a request applies.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := f
	s.faults = append(s.faults, &c)
}

// ClearFaults removes all faults.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	s.faults = nil
	s.mu.Unlock()
}

// takeFault returns the fault for a GET of file, using up one of its times.
func (s *Server) takeFault(file string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if f.File != "" && f.File != file {
			continue
		}
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return f
	}
	return nil
}

// String names the fault kind.
func (k FaultKind) String() string {
	switch k {
	case FaultCut:
		return "cut"
	case FaultStatus:
		return "status"
	case FaultStall:
		return "stall"
	case FaultCorrupt:
		return "corrupt"
	}
	return "fault?"
}
