package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"cloud.google.com/go/firestore"
	vkit "cloud.google.com/go/firestore/apiv1"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// DefaultProjectID is the project both emulators use unless told otherwise.
// A "demo-" project needs no credentials and never reaches real services.
const DefaultProjectID = "demo-fairboard"

// DefaultStartTimeout bounds how long a Start function waits for its
// emulator to answer. Unloaded, Firestore needs about 7 s and Auth about
// 10 s; on two busy cores running several test packages, over a minute.
const DefaultStartTimeout = 180 * time.Second

// FirestoreOptions configures [StartFirestore]. The zero value is valid.
type FirestoreOptions struct {
	// ProjectID names the project in URLs and clients; "" means
	// DefaultProjectID. The emulator itself serves any project.
	ProjectID string
	// Rules is the path of a security rules file the emulator enforces for
	// end-user requests; "" starts it without --rules. A relative path is
	// resolved against the repository root ([RepoRoot]).
	Rules string
	// StartTimeout bounds the wait for readiness; 0 means DefaultStartTimeout.
	StartTimeout time.Duration
}

// Firestore is a running Firestore emulator. Stop it when done.
type Firestore struct {
	// Host is "127.0.0.1:PORT", the value for FIRESTORE_EMULATOR_HOST.
	Host string
	// ProjectID is the project the helpers address.
	ProjectID string
	p         *proc
}

// StartFirestore runs `gcloud emulators firestore start` on a free
// 127.0.0.1 port and returns once it answers HTTP. It fails if gcloud cannot
// start, the rules file does not exist or compile, or the emulator is not
// ready within the timeout; the error then includes the emulator's log.
func StartFirestore(ctx context.Context, opts FirestoreOptions) (*Firestore, error) {
	if opts.ProjectID == "" {
		opts.ProjectID = DefaultProjectID
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	var rules string
	if opts.Rules != "" {
		var err error
		if rules, err = resolvePath(opts.Rules); err != nil {
			return nil, err
		}
	}
	var err error
	for range startAttempts {
		var f *Firestore
		if f, err = startFirestoreOnce(ctx, opts, rules); err == nil {
			return f, nil
		}
		if !errors.Is(err, errPortTaken) {
			return nil, err
		}
	}
	return nil, err
}

// startFirestoreOnce makes one try of StartFirestore on a port picked
// afresh, with the resolved rules path ("" for none).
func startFirestoreOnce(ctx context.Context, opts FirestoreOptions, rules string) (*Firestore, error) {
	ports, err := pickPorts(1)
	if err != nil {
		return nil, err
	}
	host := "127.0.0.1:" + strconv.Itoa(ports[0])
	args := []string{"emulators", "firestore", "start", "--host-port=" + host, "--quiet"}
	if rules != "" {
		args = append(args, "--rules="+rules)
	}
	env := []string{
		"CLOUDSDK_CORE_DISABLE_PROMPTS=1",
		"CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK=true",
		"CLOUDSDK_CORE_DISABLE_USAGE_REPORTING=true",
	}
	p, err := startProc("gcloud", args, "", env, "fairboard-firestore")
	if err != nil {
		return nil, err
	}
	if err := waitReady(ctx, p, "firestore emulator", "http://"+host+"/", firestoreReady, opts.StartTimeout); err != nil {
		p.stop()
		return nil, err
	}
	return &Firestore{Host: host, ProjectID: opts.ProjectID, p: p}, nil
}

// firestoreReady is what the Firestore emulator prints once it serves.
const firestoreReady = "Dev App Server is now running"

// resolvePath makes a relative path relative to the repository root and
// checks that it exists.
func resolvePath(path string) (string, error) {
	if !filepath.IsAbs(path) {
		root, err := RepoRoot()
		if err != nil {
			return "", err
		}
		path = filepath.Join(root, path)
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("emulator: %w", err)
	}
	return path, nil
}

// Stop kills the emulator's whole process group (gcloud and its java) and
// waits for it to be gone. It is safe to call more than once.
func (f *Firestore) Stop() error { return f.p.stop() }

// LogPath is the file that holds the emulator's output.
func (f *Firestore) LogPath() string { return f.p.logPath }

// Pause stops the emulator's processes (SIGSTOP): it keeps its
// connections and state but answers nothing, as a database that hangs
// would, until Resume. Call Resume before the test ends (t.Cleanup).
func (f *Firestore) Pause() error { return f.p.signal(syscall.SIGSTOP) }

// Resume continues the processes Pause stopped (SIGCONT).
func (f *Firestore) Resume() error { return f.p.signal(syscall.SIGCONT) }

// DocumentsURL is the REST root of the default database's documents,
// "http://HOST/v1/projects/PROJECT/databases/(default)/documents".
func (f *Firestore) DocumentsURL() string {
	return "http://" + f.Host + "/v1/projects/" + f.ProjectID + "/databases/(default)/documents"
}

// REST sends one request to the documents REST API, as a client would:
// method on DocumentsURL()+path, body (if not nil) as JSON, and idToken
// (if not empty) as its bearer token, so the security rules apply to that
// user. It returns the HTTP status and the body; an error only when the
// request could not be made or read.
func (f *Firestore) REST(ctx context.Context, method, path, idToken string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, f.DocumentsURL()+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idToken != "" {
		req.Header.Set("Authorization", "Bearer "+idToken)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// Reset deletes every document of the project's default database, so each
// test can start empty. It fails if the emulator does not answer 200.
func (f *Firestore) Reset(ctx context.Context) error {
	url := "http://" + f.Host + "/emulator/v1/projects/" + f.ProjectID + "/databases/(default)/documents"
	return doDelete(ctx, url)
}

// Client returns a Go Firestore client for the emulator that acts as the
// project's owner: like the client's own FIRESTORE_EMULATOR_HOST mode, it
// sends "Authorization: Bearer owner", which the emulator treats as admin
// (security rules bypassed), without touching the process environment.
// Close it when done. opts are added to the connection's dial options
// (a test may inject faults with an interceptor).
func (f *Firestore) Client(ctx context.Context, opts ...grpc.DialOption) (*firestore.Client, error) {
	conn, err := grpc.NewClient(f.Host, append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(ownerCreds{})}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("emulator: dial firestore: %w", err)
	}
	c, err := firestore.NewClient(ctx, f.ProjectID, option.WithGRPCConn(conn))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("emulator: firestore client: %w", err)
	}
	return c, nil
}

// RPC returns a raw Firestore client (cloud.google.com/go/firestore/apiv1)
// of the emulator, as the owner, on a connection of its own (closed with
// it), for fsstore.WithRPC; opts as Client's.
func (f *Firestore) RPC(ctx context.Context, opts ...grpc.DialOption) (*vkit.Client, error) {
	conn, err := grpc.NewClient(f.Host, append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithPerRPCCredentials(ownerCreds{})}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("emulator: dial firestore: %w", err)
	}
	c, err := vkit.NewClient(ctx, option.WithGRPCConn(conn))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("emulator: firestore rpc client: %w", err)
	}
	return c, nil
}

// ownerCreds sends the emulator's admin credential on every call.
type ownerCreds struct{}

func (ownerCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer owner"}, nil
}

func (ownerCreds) RequireTransportSecurity() bool { return false }

// doDelete sends DELETE url and expects 200.
func doDelete(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
	if err != nil {
		return fmt.Errorf("emulator: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("emulator: reset: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("emulator: DELETE %s: %s: %s", url, resp.Status, body)
	}
	return nil
}
