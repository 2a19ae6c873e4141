// Package trickle is a client that sends an HTTP request's body as slowly
// as it likes: the attack of security issue 18, item 3, for the tests and
// memory checks that reproduce it.
package trickle

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"time"
)

// Post opens a connection to addr (host:port) and sends a POST to path
// with token, declaring a JSON body of declared bytes, then one byte per
// every until stop is closed. The channel gets the answer's status line
// without "HTTP/1.1 " ("429 Too Many Requests"), or says there was none.
// The connection is closed when stop is.
func Post(addr, path, token string, declared int, every time.Duration, stop <-chan struct{}) (<-chan string, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n{", path, addr, token, declared)
	if err != nil {
		conn.Close()
		return nil, err
	}
	go func() {
		defer conn.Close()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					<-stop
					return
				}
			}
		}
	}()
	out := make(chan string, 1)
	go func() {
		line, err := bufio.NewReader(conn).ReadString('\n')
		if err != nil {
			out <- "no answer before the connection closed"
			return
		}
		out <- strings.TrimSpace(strings.TrimPrefix(line, "HTTP/1.1 "))
	}()
	return out, nil
}
