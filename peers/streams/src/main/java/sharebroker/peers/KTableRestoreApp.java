package sharebroker.peers;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * A KTable over a topic of keyed updates, materialized in a RocksDB store with its
 * changelog topic; it reports how the store is restored from the changelog.
 *
 * <pre>
 * KTableRestoreApp --bootstrap B --application-id A --input T --state-dir D
 *                  [--changelog-config k=v,k=v] [--log-level warn]
 * </pre>
 *
 * The store is named "latest", so its changelog is {@code A-latest-changelog}; the
 * optional changelog configs are the topic configs Kafka Streams creates it with.
 * On stdout, one line each:
 * <ul>
 *   <li>{@code RESTORED <records> <ms>} when a restore of the store ends (a
 *       StateRestoreListener: records restored over all partitions, wall time from
 *       the first partition's start to the last one's end); nothing if nothing had
 *       to be restored;</li>
 *   <li>{@code RUNNING <ms>} when the instance reaches RUNNING, ms since start();</li>
 *   <li>on a line "dump" on stdin: {@code TABLE <n>}, then {@code ROW key value} for
 *       every row of the store (an interactive query), then {@code END};</li>
 *   <li>{@code STATE ERROR|NOT_RUNNING} if the instance stops by itself.</li>
 * </ul>
 * Stops cleanly on SIGTERM or at the end of stdin.
 */
public final class KTableRestoreApp {

    private KTableRestoreApp() {}

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    public static void main(String[] argv) throws Exception {
        Map<String, String> opts = new java.util.HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            opts.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", opts.getOrDefault("log-level", "warn"));
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, opts.get("application-id"));
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, opts.get("bootstrap"));
        props.put(StreamsConfig.STATE_DIR_CONFIG, opts.get("state-dir"));
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
        // No record cache: every update reaches the changelog, as a busy table's would.
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        // Kafka Streams does not leave its classic group on close, so a restarted instance
        // waits for the old member's session to expire: 6 s (the broker minimum), not 45 s.
        props.put(StreamsConfig.consumerPrefix("session.timeout.ms"), "6000");

        Map<String, String> changelog = new java.util.HashMap<>();
        String extra = opts.getOrDefault("changelog-config", "");
        for (String kv : extra.split(",")) {
            if (!kv.isBlank()) {
                String[] parts = kv.split("=", 2);
                changelog.put(parts[0].trim(), parts[1].trim());
            }
        }

        StreamsBuilder builder = new StreamsBuilder();
        builder.table(
                opts.get("input"),
                Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String, KeyValueStore<Bytes, byte[]>>as("latest")
                        .withKeySerde(Serdes.String())
                        .withValueSerde(Serdes.String())
                        .withLoggingEnabled(changelog));

        KafkaStreams streams = new KafkaStreams(builder.build(), props);

        AtomicLong restored = new AtomicLong();
        AtomicLong restoreStart = new AtomicLong(-1);
        AtomicLong active = new AtomicLong();
        streams.setGlobalStateRestoreListener(new StateRestoreListener() {
            @Override
            public synchronized void onRestoreStart(TopicPartition tp, String store, long start, long end) {
                if (active.getAndIncrement() == 0) {
                    restoreStart.set(System.nanoTime());
                    restored.set(0);
                }
            }

            @Override
            public void onBatchRestored(TopicPartition tp, String store, long batchEnd, long n) {
                restored.addAndGet(n);
            }

            @Override
            public synchronized void onRestoreEnd(TopicPartition tp, String store, long total) {
                if (active.decrementAndGet() == 0) {
                    long ms = (System.nanoTime() - restoreStart.get()) / 1_000_000;
                    say("RESTORED " + restored.get() + " " + ms);
                }
            }
        });

        CountDownLatch done = new CountDownLatch(1);
        long[] started = new long[1];
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                say("RUNNING " + (System.nanoTime() - started[0]) / 1_000_000);
            }
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                say("STATE " + now);
                done.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            done.countDown();
        }));

        Thread commands = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.trim().equals("dump")) {
                        try {
                            dump(streams);
                        } catch (RuntimeException e) {  // not RUNNING (yet): the caller asks again
                            say("ERROR " + e);
                        }
                    }
                }
            } catch (Exception e) {
                say("ERROR " + e);
            }
            done.countDown();
        }, "commands");
        commands.setDaemon(true);

        started[0] = System.nanoTime();
        streams.start();
        commands.start();
        done.await();
        streams.close();
    }

    private static void dump(KafkaStreams streams) {
        ReadOnlyKeyValueStore<String, String> store = streams.store(
                StoreQueryParameters.fromNameAndType("latest", QueryableStoreTypes.<String, String>keyValueStore()));
        TreeMap<String, String> rows = new TreeMap<>();
        try (KeyValueIterator<String, String> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<String, String> kv = it.next();
                rows.put(kv.key, kv.value);
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("TABLE ").append(rows.size()).append('\n');
        for (Map.Entry<String, String> e : rows.entrySet()) {
            out.append("ROW ").append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        }
        out.append("END");
        say(out.toString());
    }
}
