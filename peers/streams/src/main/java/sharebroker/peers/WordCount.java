package sharebroker.peers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * Kafka Streams word count for tests/compat: lines from the input topic are split into
 * words, re-keyed by word (a repartition topic), counted into a KTable (a state store with
 * its changelog topic), and every count change is written to the output topic.
 *
 * <pre>
 * WordCount -bootstrap B -app-id A -input T -output O -state-dir D
 *           [-protocol streams|classic] [-stop-file F] [-max-ms MS] [-threads N] [-prop k=v ...]
 * </pre>
 *
 * Prints one JSON object per line on stdout: {"state":"RUNNING"} for every state change,
 * {"error":"..."} for an uncaught exception, {"closed":true} at the end. Runs until the stop
 * file exists (or --max-ms passed), then closes cleanly; exits 1 if the app reached ERROR.
 */
public final class WordCount {

    private WordCount() {}

    private static synchronized void emit(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    public static void main(String[] argv) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        Map<String, String> opts = new HashMap<>();
        Properties extra = new Properties();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            String key = argv[i].replaceFirst("^-+", "");
            if (key.equals("prop")) {
                int eq = argv[i + 1].indexOf('=');
                extra.put(argv[i + 1].substring(0, eq), argv[i + 1].substring(eq + 1));
            } else {
                opts.put(key, argv[i + 1]);
            }
        }
        for (String key : new String[] {"bootstrap", "app-id", "input", "output", "state-dir"}) {
            if (!opts.containsKey(key)) {
                System.err.println("missing -" + key);
                System.exit(2);
            }
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, opts.get("app-id"));
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, opts.get("bootstrap"));
        props.put(StreamsConfig.STATE_DIR_CONFIG, opts.get("state-dir"));
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, opts.getOrDefault("threads", "1"));
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.String().getClass());
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.String().getClass());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "200");
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, opts.getOrDefault("protocol", "streams"));
        props.putAll(extra);

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(opts.get("input"), Consumed.with(Serdes.String(), Serdes.String()))
            .flatMapValues(line -> Arrays.asList(line.toLowerCase(Locale.ROOT).split("\\W+")))
            .filter((key, word) -> !word.isEmpty())
            .groupBy((key, word) -> word, Grouped.with("words", Serdes.String(), Serdes.String()))
            .count(Materialized.as("counts"))
            .toStream()
            .to(opts.get("output"), Produced.with(Serdes.String(), Serdes.Long()));

        long started = System.currentTimeMillis();
        long maxMs = Long.parseLong(opts.getOrDefault("max-ms", "0"));
        String stopFile = opts.get("stop-file");
        AtomicBoolean failed = new AtomicBoolean(false);
        KafkaStreams streams = new KafkaStreams(builder.build(), props);
        streams.setStateListener((now, before) -> {
            emit("{\"state\":" + quote(now.name()) + "}");
            if (now == KafkaStreams.State.ERROR) {
                failed.set(true);
            }
        });
        streams.setUncaughtExceptionHandler(e -> {
            emit("{\"error\":" + quote(String.valueOf(e)) + "}");
            return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        streams.start();
        while (!failed.get()) {
            if (stopFile != null && Files.exists(Path.of(stopFile))) {
                break;
            }
            if (maxMs > 0 && System.currentTimeMillis() - started > maxMs) {
                break;
            }
            Thread.sleep(100);
        }
        streams.close(Duration.ofSeconds(30));
        emit("{\"closed\":true}");
        System.exit(failed.get() ? 1 : 0);
    }
}
