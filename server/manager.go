package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mlxrun/mlx/runtime"
)

// manager keeps the loaded models: it loads a model once however many
// requests ask for it at the same time, unloads the least recently used
// idle one beyond maxLoaded, and unloads models idle for keepAlive.
type manager struct {
	loader    Loader
	maxLoaded int           // ≤ 0: no limit
	keepAlive time.Duration // ≤ 0: never unload idle models
	onLoad    func(id string, d time.Duration, err error)

	mu      sync.Mutex
	entries map[string]*entry
	aliases map[string]string // short name → id
	copies  map[string]string // name given by /api/copy → the id it names
	closed  bool
	now     func() time.Time

	ctx    context.Context // of the loads: the server's; close cancels it
	cancel context.CancelFunc
	loads  sync.WaitGroup // the loads in progress; close waits for them
}

// entry is a model being loaded or loaded.
type entry struct {
	id       string
	model    Model
	info     ModelInfo
	ready    chan struct{} // closed when the load ended
	err      error
	refs     int // requests using it
	lastUsed time.Time
	loadedAt time.Time
	pinned   bool // named at start: never unloaded while the server runs
	// keepAlive, when set, replaces the manager's for this model: how
	// long it stays loaded once idle (0: unloaded as soon as it is idle;
	// negative: for good). The last request that set it decides.
	keepAlive *time.Duration
}

// newManager returns a manager whose loads run under ctx, the server's.
func newManager(ctx context.Context, l Loader, maxLoaded int, keepAlive time.Duration) *manager {
	ctx, cancel := context.WithCancel(ctx)
	return &manager{loader: l, maxLoaded: maxLoaded, keepAlive: keepAlive,
		entries: map[string]*entry{}, aliases: map[string]string{}, now: time.Now, ctx: ctx, cancel: cancel}
}

// alias returns the short name of a model reference: the base name of a
// path without its .gguf extension.
func alias(ref string) string {
	base := filepath.Base(strings.TrimRight(ref, `/\`))
	return strings.TrimSuffix(base, ".gguf")
}

// canonical returns the id a name refers to; m.mu is held.
func (m *manager) canonical(name string) string {
	if _, ok := m.entries[name]; ok {
		return name
	}
	if id, ok := m.aliases[name]; ok {
		return id
	}
	return name
}

// resolve returns the id of the model a request names: a loaded model's
// id as it is, else what the loader's Resolver says (an error wrapping
// runtime.ErrModelNotFound for a name it does not serve). Without a
// Resolver the name is the id.
func (m *manager) resolve(name string) (string, error) {
	m.mu.Lock()
	if c, ok := m.copies[name]; ok {
		name = c
	}
	id := m.canonical(name)
	_, loaded := m.entries[id]
	m.mu.Unlock()
	r, ok := m.loader.(Resolver)
	if loaded || !ok {
		return id, nil
	}
	return r.Resolve(name)
}

// acquire returns the model a request names, loading it if needed, and a
// release function to call when the request is done with it.
func (m *manager) acquire(ctx context.Context, name string, pinned bool) (Model, func(), error) {
	id, err := m.resolve(name)
	if err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, nil, ErrShutdown
	}
	e := m.entries[id]
	if e == nil {
		e = &entry{id: id, ready: make(chan struct{}), pinned: pinned}
		m.entries[id] = e
		m.loads.Add(1)
		go m.load(e)
	}
	e.pinned = e.pinned || pinned
	e.refs++
	m.mu.Unlock()

	select {
	case <-e.ready:
	case <-ctx.Done():
		m.release(e)
		return nil, nil, context.Cause(ctx)
	}
	if e.err != nil {
		m.release(e)
		return nil, nil, e.err
	}
	var once sync.Once
	return e.model, func() { once.Do(func() { m.release(e) }) }, nil
}

func (m *manager) release(e *entry) {
	m.mu.Lock()
	e.refs--
	e.lastUsed = m.now()
	m.mu.Unlock()
	m.enforce()
}

// load runs the loader for e, without a request's context: other
// requests may wait for the same model.
func (m *manager) load(e *entry) {
	defer m.loads.Done()
	start := time.Now()
	model, err := m.loader.Load(m.ctx, e.id)
	if err != nil && !errors.Is(err, runtime.ErrModelNotFound) {
		err = fmt.Errorf("loading model %s: %w", e.id, err)
	}
	if m.onLoad != nil {
		m.onLoad(e.id, time.Since(start), err)
	}
	m.mu.Lock()
	closed := m.closed
	if err != nil || closed {
		delete(m.entries, e.id)
	} else {
		e.model, e.info = model, model.Info()
		e.loadedAt, e.lastUsed = m.now(), m.now()
		if _, resolves := m.loader.(Resolver); resolves {
			// The loader's ids are the names; it knows the other spellings.
		} else if a := alias(e.id); a != e.id {
			if _, taken := m.aliases[a]; !taken {
				m.aliases[a] = e.id
			}
		}
	}
	if closed && err == nil {
		err = ErrShutdown
	}
	e.err = err
	close(e.ready)
	m.mu.Unlock()
	if closed && model != nil {
		model.Close()
	}
	m.enforce()
}

// enforce unloads models idle beyond keepAlive, then the least recently
// used idle ones beyond maxLoaded.
func (m *manager) enforce() {
	var victims []*entry
	m.mu.Lock()
	now := m.now()
	var idle []*entry
	count := 0
	for _, e := range m.entries {
		if e.model == nil {
			count++ // loading
			continue
		}
		count++
		if e.refs > 0 || e.pinned {
			continue
		}
		if keep, ok := m.keepFor(e); ok && now.Sub(e.lastUsed) >= keep {
			victims = append(victims, e)
			count--
			continue
		}
		idle = append(idle, e)
	}
	sort.Slice(idle, func(i, j int) bool { return idle[i].lastUsed.Before(idle[j].lastUsed) })
	for _, e := range idle {
		if m.maxLoaded <= 0 || count <= m.maxLoaded {
			break
		}
		victims = append(victims, e)
		count--
	}
	for _, e := range victims {
		m.forget(e)
	}
	m.mu.Unlock()
	for _, e := range victims {
		e.model.Close()
	}
}

// keepFor returns how long e stays loaded once idle; false means for
// good. m.mu is held.
func (m *manager) keepFor(e *entry) (time.Duration, bool) {
	keep := m.keepAlive
	switch {
	case e.pinned:
		return 0, false
	case e.keepAlive != nil && *e.keepAlive < 0:
		return 0, false
	case e.keepAlive != nil:
		return *e.keepAlive, true
	}
	return keep, keep > 0
}

// setKeepAlive sets how long the model id stays loaded once idle, for this
// model only (Ollama's keep_alive): 0 unloads it when its last request
// ends, a negative duration keeps it for good. Models named at start stay
// loaded whatever it says.
func (m *manager) setKeepAlive(id string, d time.Duration) {
	m.mu.Lock()
	if e := m.entries[m.canonical(id)]; e != nil {
		e.keepAlive = &d
	}
	m.mu.Unlock()
}

// forget removes e and its alias; m.mu is held.
func (m *manager) forget(e *entry) {
	delete(m.entries, e.id)
	if m.aliases[alias(e.id)] == e.id {
		delete(m.aliases, alias(e.id))
	}
}

// janitor calls enforce every interval until ctx is done.
func (m *manager) janitor(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.enforce()
		}
	}
}

// loadedModel is a snapshot of a loaded model for the listings.
type loadedModel struct {
	ID       string
	Info     ModelInfo
	Loaded   time.Time
	LastUsed time.Time
	Refs     int
	Pinned   bool
	Expires  time.Time // zero: never
}

// list returns the loaded models, sorted by id.
func (m *manager) list() []loadedModel {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []loadedModel
	for _, e := range m.entries {
		if e.model == nil {
			continue
		}
		lm := loadedModel{ID: e.id, Info: e.info, Loaded: e.loadedAt, LastUsed: e.lastUsed, Refs: e.refs, Pinned: e.pinned}
		if keep, ok := m.keepFor(e); ok {
			lm.Expires = e.lastUsed.Add(keep)
		}
		out = append(out, lm)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// lookup returns the loaded model named id (or its alias).
func (m *manager) lookup(id string) (loadedModel, bool) {
	m.mu.Lock()
	id = m.canonical(id)
	m.mu.Unlock()
	for _, lm := range m.list() {
		if lm.ID == id {
			return lm, true
		}
	}
	return loadedModel{}, false
}

// loading counts the models being loaded.
func (m *manager) loading() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, e := range m.entries {
		if e.model == nil {
			n++
		}
	}
	return n
}

// loaded counts the loaded models.
func (m *manager) loaded() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, e := range m.entries {
		if e.model != nil {
			n++
		}
	}
	return n
}

// close cancels the loads in progress and waits for them to end (a load
// may be a download that must stop writing before the process exits),
// then unloads every model; later acquires fail with ErrShutdown.
func (m *manager) close() {
	m.cancel()
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.loads.Wait()
	m.mu.Lock()
	var models []Model
	for _, e := range m.entries {
		if e.model != nil {
			models = append(models, e.model)
			m.forget(e)
		}
	}
	m.mu.Unlock()
	for _, md := range models {
		md.Close()
	}
}
