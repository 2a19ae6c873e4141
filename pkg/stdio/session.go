package stdio

import (
	"crypto/rand"
	"encoding/hex"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// session is the one client of a stdio connection, registered with the
// MCP server so that initialize (2025-11-25) records the client and its
// capabilities, per-request _meta (2026-07-28) does the same, and
// server-sent notifications have somewhere to go. Unlike mcp-go's stdio
// session it is not a package-level singleton: each Serve has its own,
// with its own id, so tests and several connections cannot share state.
type session struct {
	id            string
	notifications chan mcp.JSONRPCNotification
	initialized   atomic.Bool
	logLevel      atomic.Value // mcp.LoggingLevel
	clientInfo    atomic.Value // mcp.Implementation
	capabilities  atomic.Value // mcp.ClientCapabilities
	version       atomic.Value // string
}

var (
	_ server.ClientSession         = (*session)(nil)
	_ server.SessionWithLogging    = (*session)(nil)
	_ server.SessionWithClientInfo = (*session)(nil)
)

func newSession() *session {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand documents it)
	return &session{id: "stdio-" + hex.EncodeToString(b[:]), notifications: make(chan mcp.JSONRPCNotification, 64)}
}

func (s *session) SessionID() string { return s.id }

func (s *session) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.notifications }

func (s *session) Initialize() {
	if s.logLevel.Load() == nil {
		s.logLevel.Store(mcp.LoggingLevelError)
	}
	s.initialized.Store(true)
}

func (s *session) Initialized() bool { return s.initialized.Load() }

func (s *session) SetLogLevel(level mcp.LoggingLevel) { s.logLevel.Store(level) }

func (s *session) GetLogLevel() mcp.LoggingLevel {
	if l, ok := s.logLevel.Load().(mcp.LoggingLevel); ok {
		return l
	}
	return mcp.LoggingLevelError
}

func (s *session) GetClientInfo() mcp.Implementation {
	v, _ := s.clientInfo.Load().(mcp.Implementation)
	return v
}

func (s *session) SetClientInfo(v mcp.Implementation) { s.clientInfo.Store(v) }

func (s *session) GetClientCapabilities() mcp.ClientCapabilities {
	v, _ := s.capabilities.Load().(mcp.ClientCapabilities)
	return v
}

func (s *session) SetClientCapabilities(v mcp.ClientCapabilities) { s.capabilities.Store(v) }

// ProtocolVersion is the version negotiated by initialize, "" before it.
func (s *session) ProtocolVersion() string {
	v, _ := s.version.Load().(string)
	return v
}

// SetProtocolVersion is called by mcp-go when initialize negotiates.
func (s *session) SetProtocolVersion(v string) { s.version.Store(v) }
