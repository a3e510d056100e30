package fsstore

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"

	vkit "cloud.google.com/go/firestore/apiv1"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// NewRPC returns the raw Firestore client for WithRPC, made as
// firestore.NewClient makes its own: with FIRESTORE_EMULATOR_HOST set,
// to that emulator, without TLS, acting as its owner ("Authorization:
// Bearer owner"); otherwise to Firestore with the default credentials
// (opts added). Close it when done (or give WithCloseClient).
func NewRPC(ctx context.Context, opts ...option.ClientOption) (*vkit.Client, error) {
	if addr := os.Getenv("FIRESTORE_EMULATOR_HOST"); addr != "" {
		addr = strings.TrimPrefix(strings.TrimPrefix(addr, "http://"), "https://")
		conn, err := grpc.NewClient(addr,
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithPerRPCCredentials(emulatorOwner{}),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32)))
		if err != nil {
			return nil, fmt.Errorf("fsstore: dial the emulator at %s: %w", addr, err)
		}
		opts = []option.ClientOption{option.WithGRPCConn(conn)}
	} else {
		opts = append([]option.ClientOption{option.WithGRPCDialOption(grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32)))}, opts...)
	}
	c, err := vkit.NewClient(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("fsstore: raw firestore client: %w", err)
	}
	return c, nil
}

// emulatorOwner is the emulator's admin credential, sent on every call
// (as the library's own client sends it).
type emulatorOwner struct{}

func (emulatorOwner) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer owner"}, nil
}

func (emulatorOwner) RequireTransportSecurity() bool { return false }
