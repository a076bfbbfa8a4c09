// sharecli: a tiny franz-go (kgo) share-group consumer for the differential tests.
//
//	sharecli consume --seeds S --topic T --group G --max N --timeout-ms MS [--release-first K] [--reject-first K]
//
// Prints one JSON line per delivered record ({"partition","offset","deliveryCount","value","ack"})
// and a final {"summary":true,...} line. Records not released/rejected are accepted implicitly
// (next poll) and flushed with FlushAcks before Close. Exits after --max deliveries or the timeout.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "consume" {
		fmt.Fprintln(os.Stderr, "usage: sharecli consume --seeds S --topic T --group G --max N --timeout-ms MS [--release-first K] [--reject-first K]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("consume", flag.ExitOnError)
	seeds := fs.String("seeds", "127.0.0.1:9092", "bootstrap servers")
	topic := fs.String("topic", "", "topic")
	group := fs.String("group", "", "share group")
	max := fs.Int("max", 1, "stop after this many deliveries")
	timeoutMs := fs.Int("timeout-ms", 30000, "overall timeout")
	releaseFirst := fs.Int("release-first", 0, "release the first K first-time deliveries")
	rejectFirst := fs.Int("reject-first", 0, "reject the first K first-time deliveries (after the released ones)")
	fs.Parse(os.Args[2:])

	out := json.NewEncoder(os.Stdout)
	cl, err := kgo.NewClient(kgo.SeedBrokers(*seeds), kgo.ConsumeTopics(*topic), kgo.ShareGroup(*group))
	if err != nil {
		out.Encode(map[string]any{"summary": true, "error": err.Error()})
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*timeoutMs)*time.Millisecond)
	defer cancel()
	n, released, rejected, timedOut := 0, 0, 0, false
	var fetchErr string
	for n < *max {
		fetches := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			timedOut = true
			break
		}
		fetches.EachError(func(t string, p int32, e error) { fetchErr = fmt.Sprintf("%s[%d]: %v", t, p, e) })
		fetches.EachRecord(func(r *kgo.Record) {
			ack := "accept"
			if r.DeliveryCount() == 1 && released < *releaseFirst {
				r.Ack(kgo.AckRelease)
				released++
				ack = "release"
			} else if r.DeliveryCount() == 1 && rejected < *rejectFirst {
				r.Ack(kgo.AckReject)
				rejected++
				ack = "reject"
			}
			out.Encode(map[string]any{"partition": r.Partition, "offset": r.Offset,
				"deliveryCount": r.DeliveryCount(), "value": string(r.Value), "ack": ack})
			n++
		})
	}
	// Accept whatever the last poll returned and was not acked explicitly, then flush.
	cl.MarkAcks(kgo.AckAccept)
	fctx, fcancel := context.WithTimeout(context.Background(), 10*time.Second)
	flushErr := cl.FlushAcks(fctx)
	fcancel()
	cl.Close()
	s := map[string]any{"summary": true, "records": n, "released": released, "rejected": rejected, "timedOut": timedOut}
	if fetchErr != "" {
		s["error"] = fetchErr
	}
	if flushErr != nil {
		s["flushError"] = flushErr.Error()
	}
	out.Encode(s)
}
