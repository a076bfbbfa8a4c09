package sharebroker.peers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Consumer-group driver for tests/compat: the Java KafkaConsumer 4.4 with either group
 * protocol (classic, or the KIP-848 consumer protocol).
 *
 * <pre>
 * consume   --bootstrap B --topic T --group G [--protocol consumer|classic] [--assignor uniform|range]
 *           [--instance ID] [--stop-file F] [--idle-ms MS] [--max-ms MS]
 * </pre>
 *
 * {@code consume} commits synchronously after every poll that returned records and prints one
 * JSON object per line on stdout: {"assigned":[...]}, {"revoked":[...]}, one
 * {"p":partition,"o":offset,"t":millis,"v":value} per record, {"committed":{partition:next
 * offset},"t":millis} after each acknowledged commit (or {"commit_failed":...}), and
 * {"done":N} at the end. It stops when the
 * stop file exists, after --idle-ms without records since the latest assignment or record
 * (default: never; not before the first assignment), or after --max-ms.
 * Extra client properties:
 * {@code --prop key=value} (repeatable).
 */
public final class GroupTool {

    private GroupTool() {}

    public static void main(String[] argv) throws Exception {
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        Properties extra = new Properties();
        for (int i = 0; i < args.size() - 1; ) {
            if (args.get(i).equals("--prop")) {
                String kv = args.get(i + 1);
                int eq = kv.indexOf('=');
                extra.put(kv.substring(0, eq), kv.substring(eq + 1));
                args.remove(i);
                args.remove(i);
            } else {
                i++;
            }
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        if (args.isEmpty()) {
            usage();
        }
        Map<String, String> opts = options(args.subList(1, args.size()));
        switch (args.get(0)) {
            case "consume" -> consume(opts, extra);
            default -> usage();
        }
    }

    private static void usage() {
        System.err.println("usage: consume --bootstrap B --topic T --group G ...");
        System.exit(2);
    }

    private static Map<String, String> options(List<String> args) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            if (!args.get(i).startsWith("--")) {
                usage();
            }
            out.put(args.get(i).substring(2), args.get(i + 1));
        }
        return out;
    }

    private static String need(Map<String, String> opts, String key) {
        String v = opts.get(key);
        if (v == null) {
            System.err.println("missing --" + key);
            System.exit(2);
        }
        return v;
    }

    private static boolean stopRequested(Map<String, String> opts, long started) {
        String stop = opts.get("stop-file");
        if (stop != null && Files.exists(Path.of(stop))) {
            return true;
        }
        long max = Long.parseLong(opts.getOrDefault("max-ms", "0"));
        return max > 0 && System.currentTimeMillis() - started > max;
    }

    private static String partitions(Collection<TopicPartition> tps) {
        StringBuilder sb = new StringBuilder("[");
        for (TopicPartition tp : tps) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(tp.partition());
        }
        return sb.append(']').toString();
    }

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

    private static void consume(Map<String, String> opts, Properties extra) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, need(opts, "bootstrap"));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, need(opts, "group"));
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        String protocol = opts.getOrDefault("protocol", "consumer");
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
        if (opts.containsKey("assignor") && protocol.equals("consumer")) {
            props.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, opts.get("assignor"));
        }
        if (opts.containsKey("instance")) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, opts.get("instance"));
        }
        props.putAll(extra);
        long idle = Long.parseLong(opts.getOrDefault("idle-ms", "0"));
        long started = System.currentTimeMillis();
        // The idle time counts from the latest assignment or record, not from the start: a
        // join slower than --idle-ms (a loaded machine) does not end the run before it reads.
        // Before the first assignment only --max-ms ends it (0: not assigned yet).
        long[] lastRecord = {0};
        long count = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(need(opts, "topic")), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    emit("{\"revoked\":" + partitions(partitions) + "}");
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    lastRecord[0] = System.currentTimeMillis();
                    emit("{\"assigned\":" + partitions(partitions) + "}");
                }
            });
            while (!stopRequested(opts, started)) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                Map<Integer, Long> next = new HashMap<>();
                for (ConsumerRecord<String, String> r : records) {
                    emit("{\"p\":" + r.partition() + ",\"o\":" + r.offset() + ",\"t\":" + System.currentTimeMillis()
                        + ",\"v\":" + quote(String.valueOf(r.value())) + "}");
                    next.put(r.partition(), r.offset() + 1);
                    count++;
                }
                if (!records.isEmpty()) {
                    try {
                        consumer.commitSync();
                        StringBuilder sb = new StringBuilder("{\"committed\":{");
                        boolean first = true;
                        for (Map.Entry<Integer, Long> e : next.entrySet()) {
                            sb.append(first ? "" : ",").append('"').append(e.getKey()).append("\":").append(e.getValue());
                            first = false;
                        }
                        emit(sb.append("},\"t\":").append(System.currentTimeMillis()).append('}').toString());
                    } catch (org.apache.kafka.common.KafkaException e) {
                        emit("{\"commit_failed\":" + quote(String.valueOf(e)) + "}");
                    }
                    lastRecord[0] = System.currentTimeMillis();
                } else if (idle > 0 && lastRecord[0] > 0 && System.currentTimeMillis() - lastRecord[0] > idle) {
                    break;
                }
            }
        }
        emit("{\"done\":" + count + "}");
    }
}
