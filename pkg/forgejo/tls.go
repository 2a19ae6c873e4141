package forgejo

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLSConfig returns the TLS configuration of the forge transport for
// --ca-file and --insecure-skip-verify, or nil for Go's defaults (the
// system's roots).
//
// caFile adds the PEM certificates it holds to the system roots rather than
// replacing them, so a self-hosted forge behind a private CA works without
// breaking public hosts the same process might be pointed at later.
// insecure turns verification off entirely; the caller must warn loudly,
// because the token then goes to whoever answers. The two are exclusive: a
// CA file with verification off would be a silent no-op.
//
// The result is meant for HTTPOptions.TLS, which sets it on the project's
// own transport; http.DefaultTransport is never touched.
func TLSConfig(caFile string, insecure bool) (*tls.Config, error) {
	switch {
	case caFile != "" && insecure:
		return nil, errors.New("--ca-file and --insecure-skip-verify exclude each other: give the forge's CA instead of turning verification off")
	case insecure:
		return &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: true}, nil //nolint:gosec // asked for, warned about
	case caFile == "":
		return nil, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("cannot read --ca-file: %w", errors.Unwrap(err))
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--ca-file %s holds no PEM certificate", caFile)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: pool}, nil
}
