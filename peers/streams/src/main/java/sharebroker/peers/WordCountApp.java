package sharebroker.peers;

import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Word count with exactly-once processing (Kafka Streams {@code exactly_once_v2}).
 *
 * <pre>
 * WordCountApp --bootstrap B --application-id A --input T --output T --state-dir D
 *              [--group-protocol classic|streams]
 * </pre>
 *
 * Lines of the input topic are split on whitespace; the counts per word are a KTable
 * (a RocksDB store with its changelog topic) whose updates go to the output topic as
 * (word, count as a decimal string). Input offsets, store changelog writes and output
 * records commit in one transaction every 100 ms, so a reader with read_committed
 * sees each word's last value equal to its true count, also after the process is
 * killed and restarted. The group protocol is classic (the default of Kafka Streams
 * 4.3) unless {@code --group-protocol streams} asks for a KIP-1071 streams group.
 * {@code --replication-factor N} sets the replicas of its internal topics (1 by default).
 * Prints "RUNNING" on stdout once the instance is running and stops cleanly on SIGTERM.
 */
public final class WordCountApp {

    private WordCountApp() {}

    public static void main(String[] argv) throws Exception {
        java.util.Map<String, String> opts = new java.util.HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            opts.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", opts.getOrDefault("log-level", "warn"));
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, opts.get("application-id"));
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, opts.get("bootstrap"));
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        props.put(StreamsConfig.STATE_DIR_CONFIG, opts.get("state-dir"));
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, opts.getOrDefault("replication-factor", "1"));
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        props.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, opts.getOrDefault("group-protocol", "classic"));

        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, Long> counts = builder
                .stream(opts.get("input"), Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\s+")))
                .filter((key, word) -> !word.isEmpty())
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"));
        counts.toStream()
                .mapValues(count -> Long.toString(count))
                .to(opts.get("output"), Produced.with(Serdes.String(), Serdes.String()));

        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        CountDownLatch done = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                System.out.println("RUNNING");
                System.out.flush();
            }
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                System.out.println("STATE " + now);
                System.out.flush();
                done.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            streams.close();
            done.countDown();
        }));
        streams.start();
        done.await();
    }
}
