// Command tlogcheck checks the ledger's signed checkpoints and Merkle proofs with Go's own
// transparency-log library, golang.org/x/mod/sumdb (note and tlog): an outsider's check,
// sharing no code with the service.
//
// It reads one JSON document on standard input:
//
//	{"verifier_key": "<C2SP verifier key, from /api/v1/ledger/public-key, pinned>",
//	 "notes": ["<signed checkpoint note>", ...],
//	 "inclusion": [<answers of /api/v1/ledger/proofs/inclusion>, optionally with "event_hash">],
//	 "consistency": [<answers of /api/v1/ledger/proofs/consistency>]}
//
// Every note must verify (note.Open) under the verifier key; each proof is checked against
// the root of the verified note of its tree size (tlog.CheckRecord, tlog.CheckTree), never
// against a root the proof answer states. With "event_hash" (the event's 32-byte hash, hex)
// the leaf is computed here as tlog.RecordHash(event hash) = SHA-256(0x00 || hash).
// It prints one JSON document with a result per item and exits 0 when every item holds,
// 1 when any is refused, 2 when the input cannot be read.
package main

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type inclusion struct {
	Seq       int64    `json:"seq"`
	TreeSize  int64    `json:"tree_size"`
	LeafHash  string   `json:"leaf_hash"`
	EventHash string   `json:"event_hash"`
	Proof     []string `json:"proof"`
}

type consistency struct {
	From  int64    `json:"from"`
	To    int64    `json:"to"`
	Proof []string `json:"proof"`
}

type input struct {
	VerifierKey string        `json:"verifier_key"`
	Notes       []string      `json:"notes"`
	Inclusion   []inclusion   `json:"inclusion"`
	Consistency []consistency `json:"consistency"`
}

type result struct {
	OK       bool   `json:"ok"`
	Error    string `json:"error,omitempty"`
	Origin   string `json:"origin,omitempty"`
	TreeSize int64  `json:"tree_size,omitempty"`
	RootHash string `json:"root_hash,omitempty"`
}

type output struct {
	Notes       []result `json:"notes"`
	Inclusion   []result `json:"inclusion"`
	Consistency []result `json:"consistency"`
}

func parseHash(s string) (tlog.Hash, error) {
	var h tlog.Hash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("not a 32-byte hex hash: %q", s)
	}
	copy(h[:], b)
	return h, nil
}

func parseHashes(list []string) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, 0, len(list))
	for _, s := range list {
		h, err := parseHash(s)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// checkpoint reads a verified note's text as a C2SP tlog-checkpoint: origin, size, root.
func checkpoint(text string) (string, int64, tlog.Hash, error) {
	var root tlog.Hash
	lines := strings.SplitN(text, "\n", 4)
	if len(lines) < 4 {
		return "", 0, root, errors.New("a checkpoint has an origin, a size and a root line")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 {
		return "", 0, root, fmt.Errorf("the tree size %q is not a number", lines[1])
	}
	b, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(b) != len(root) {
		return "", 0, root, fmt.Errorf("the root %q is not a base64 SHA-256 hash", lines[2])
	}
	copy(root[:], b)
	return lines[0], size, root, nil
}

func refused(err error) result { return result{Error: err.Error()} }

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "tlogcheck: cannot read the input:", err)
		os.Exit(2)
	}
	verifier, err := note.NewVerifier(in.VerifierKey)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tlogcheck: note.NewVerifier refuses the key:", err)
		os.Exit(1)
	}
	roots := map[int64]tlog.Hash{}
	out := output{Notes: []result{}, Inclusion: []result{}, Consistency: []result{}}
	allOK := true
	add := func(list *[]result, r result) {
		allOK = allOK && r.OK
		*list = append(*list, r)
	}
	for _, msg := range in.Notes {
		n, err := note.Open([]byte(msg), note.VerifierList(verifier))
		if err != nil {
			add(&out.Notes, refused(err))
			continue
		}
		origin, size, root, err := checkpoint(n.Text)
		if err != nil {
			add(&out.Notes, refused(err))
			continue
		}
		roots[size] = root
		add(&out.Notes, result{OK: true, Origin: origin, TreeSize: size, RootHash: hex.EncodeToString(root[:])})
	}
	for _, p := range in.Inclusion {
		add(&out.Inclusion, checkInclusion(p, roots))
	}
	for _, p := range in.Consistency {
		add(&out.Consistency, checkConsistency(p, roots))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(2)
	}
	if !allOK {
		os.Exit(1)
	}
}

func checkInclusion(p inclusion, roots map[int64]tlog.Hash) result {
	root, ok := roots[p.TreeSize]
	if !ok {
		return refused(fmt.Errorf("no verified checkpoint of size %d", p.TreeSize))
	}
	leaf, err := parseHash(p.LeafHash)
	if err != nil {
		return refused(err)
	}
	if p.EventHash != "" {
		event, err := hex.DecodeString(p.EventHash)
		if err != nil {
			return refused(fmt.Errorf("event_hash is not hex: %q", p.EventHash))
		}
		if tlog.RecordHash(event) != leaf {
			return refused(errors.New("leaf_hash is not RecordHash(event_hash)"))
		}
	}
	proof, err := parseHashes(p.Proof)
	if err != nil {
		return refused(err)
	}
	if err := tlog.CheckRecord(proof, p.TreeSize, root, p.Seq-1, leaf); err != nil {
		return refused(err)
	}
	return result{OK: true, TreeSize: p.TreeSize}
}

func checkConsistency(p consistency, roots map[int64]tlog.Hash) result {
	oldRoot, okOld := roots[p.From]
	newRoot, okNew := roots[p.To]
	if !okOld || !okNew {
		return refused(fmt.Errorf("no verified checkpoints of sizes %d and %d", p.From, p.To))
	}
	proof, err := parseHashes(p.Proof)
	if err != nil {
		return refused(err)
	}
	if err := tlog.CheckTree(proof, p.To, newRoot, p.From, oldRoot); err != nil {
		return refused(err)
	}
	return result{OK: true, TreeSize: p.To}
}
