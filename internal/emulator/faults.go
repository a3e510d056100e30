package emulator

import (
	"context"
	"strings"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Faults injects failures into a Firestore client's calls to the
// emulator, for tests of what a store does when a commit's answer is lost
// or the database stops answering. Pass its DialOptions to
// [Firestore.Client]. The zero value injects nothing; it is safe for
// concurrent use.
type Faults struct {
	mu       sync.Mutex
	lose     int  // commits to run whose answer is then lost
	drop     int  // commits not to send at all
	blocked  bool // every call fails with UNAVAILABLE
	blockLos bool // block once an answer has been lost
	commits  int  // commits sent to the emulator
}

// LoseCommitAnswers makes the next n commits reach the emulator (and
// land) while the client gets DEADLINE_EXCEEDED, as when the answer is
// lost on the way back. With thenBlock, every call after such a loss
// fails with UNAVAILABLE until Unblock.
func (f *Faults) LoseCommitAnswers(n int, thenBlock bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lose, f.blockLos = n, thenBlock
}

// DropCommits makes the next n commits fail with DEADLINE_EXCEEDED
// without reaching the emulator (a deadline, unlike UNAVAILABLE, is not
// retried by the client, so the store sees it).
func (f *Faults) DropCommits(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.drop = n
}

// Unblock lets calls through again and clears what is pending.
func (f *Faults) Unblock() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.blocked, f.lose, f.drop, f.blockLos = false, 0, 0, false
}

// Commits returns how many commits reached the emulator.
func (f *Faults) Commits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.commits
}

var errBlocked = status.Error(codes.Unavailable, "emulator.Faults: the database is not answering")

// DialOptions are the interceptors that inject the faults.
func (f *Faults) DialOptions() []grpc.DialOption {
	return []grpc.DialOption{grpc.WithUnaryInterceptor(f.unary), grpc.WithStreamInterceptor(f.stream)}
}

func (f *Faults) unary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	f.mu.Lock()
	if f.blocked {
		f.mu.Unlock()
		return errBlocked
	}
	commit := strings.HasSuffix(method, "/Commit")
	lose, drop := commit && f.lose > 0, commit && f.lose == 0 && f.drop > 0
	switch {
	case lose:
		f.lose--
	case drop:
		f.drop--
	}
	f.mu.Unlock()
	if drop {
		return status.Error(codes.DeadlineExceeded, "emulator.Faults: the commit was never sent")
	}
	err := invoker(ctx, method, req, reply, cc, opts...)
	if commit && err == nil {
		f.mu.Lock()
		f.commits++
		if lose && f.blockLos {
			f.blocked = true
		}
		f.mu.Unlock()
	}
	if lose && err == nil {
		return status.Error(codes.DeadlineExceeded, "emulator.Faults: the commit's answer was lost")
	}
	return err
}

func (f *Faults) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	f.mu.Lock()
	blocked := f.blocked
	f.mu.Unlock()
	if blocked {
		return nil, errBlocked
	}
	return streamer(ctx, desc, cc, method, opts...)
}
