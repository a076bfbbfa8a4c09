package sharebroker.peers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Command-line driver for transactions with the Apache Kafka Java clients, used by tests/compat.
 *
 * <pre>
 * produce   --bootstrap B --topic T --transactional-id ID --transactions N --per-txn K
 *           [--abort-every M] [--offsets-group G] [--leave-open true] [--timeout-ms MS]
 *           (records "t{i}-{j}" round-robin over the topic's partitions; every M-th transaction
 *           aborts; --offsets-group G sends offsets of partition 0 of T to G in each transaction;
 *           --leave-open true leaves the last transaction open and halts the JVM)
 * consume   --bootstrap B --topic T [--isolation read_committed|read_uncommitted] [--max N]
 *           [--timeout-ms MS] [--group G]   (assign every partition from the beginning)
 * etl       --bootstrap B --in T1 --out T2 --group G --transactional-id ID --max N [--timeout-ms MS]
 *           (consume-transform-produce: upper-cases values, offsets in the transaction)
 * fence     --bootstrap B --topic T --transactional-id ID
 *           (a second producer with the same id fences the first; prints what the first gets)
 * offsets   --bootstrap B --topic T   (earliest, latest read_uncommitted and read_committed per partition)
 * committed --bootstrap B --topic T --group G   (the group's committed offsets, read_committed consumer)
 * </pre>
 *
 * Output on stdout is one JSON object per line. {@code --prop key=value} adds client properties.
 */
public final class TxnTool {

    private static final Properties EXTRA = new Properties();

    private TxnTool() {}

    public static void main(String[] argv) throws Exception {
        List<String> args = new ArrayList<>(List.of(argv));
        for (int i = 0; i < args.size() - 1; ) {
            if (args.get(i).equals("--prop")) {
                String kv = args.get(i + 1);
                int eq = kv.indexOf('=');
                EXTRA.put(kv.substring(0, eq), kv.substring(eq + 1));
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
        String command = args.remove(0);
        Map<String, String> opts = options(args);
        int rc;
        switch (command) {
            case "produce":
                rc = produce(opts);
                break;
            case "consume":
                rc = consume(opts);
                break;
            case "etl":
                rc = etl(opts);
                break;
            case "fence":
                rc = fence(opts);
                break;
            case "offsets":
                rc = offsets(opts);
                break;
            case "committed":
                rc = committed(opts);
                break;
            default:
                usage();
                rc = 2;
        }
        System.out.flush();
        System.exit(rc);
    }

    private static void usage() {
        System.err.println("usage: TxnTool produce|consume|etl|fence|offsets|committed --bootstrap B ... (see the class comment)");
        System.exit(2);
    }

    private static Map<String, String> options(List<String> args) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--") || i + 1 >= args.size()) {
                System.err.println("bad argument: " + a);
                usage();
            }
            out.put(a.substring(2), args.get(++i));
        }
        return out;
    }

    private static String need(Map<String, String> opts, String key) {
        String v = opts.get(key);
        if (v == null) {
            System.err.println("missing --" + key);
            usage();
        }
        return v;
    }

    private static KafkaProducer<String, String> producer(Map<String, String> opts, String transactionalId) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, need(opts, "bootstrap"));
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, opts.getOrDefault("timeout-ms", "30000"));
        props.putAll(EXTRA);
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(Map<String, String> opts, String group, String isolation) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, need(opts, "bootstrap"));
        if (group != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.putAll(EXTRA);
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    private static int produce(Map<String, String> opts) throws Exception {
        String topic = need(opts, "topic");
        int transactions = Integer.parseInt(need(opts, "transactions"));
        int perTxn = Integer.parseInt(need(opts, "per-txn"));
        int abortEvery = Integer.parseInt(opts.getOrDefault("abort-every", "0"));
        boolean leaveOpen = Boolean.parseBoolean(opts.getOrDefault("leave-open", "false"));
        String offsetsGroup = opts.get("offsets-group");
        KafkaProducer<String, String> producer = producer(opts, need(opts, "transactional-id"));
        producer.initTransactions();
        int partitions = producer.partitionsFor(topic).size();
        int committed = 0;
        int aborted = 0;
        for (int i = 0; i < transactions; i++) {
            producer.beginTransaction();
            for (int j = 0; j < perTxn; j++) {
                producer.send(new ProducerRecord<>(topic, j % partitions, "k" + j, "t" + i + "-" + j));
            }
            if (offsetsGroup != null) {
                Map<TopicPartition, OffsetAndMetadata> offsets =
                        Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(i + 1L));
                producer.sendOffsetsToTransaction(
                        offsets, new org.apache.kafka.clients.consumer.ConsumerGroupMetadata(offsetsGroup));
            }
            if (leaveOpen && i == transactions - 1) {
                producer.flush();
                System.out.println("{\"txn\":" + i + ",\"open\":true}");
                System.out.flush();
                Runtime.getRuntime().halt(0);
            }
            boolean abort = abortEvery > 0 && (i + 1) % abortEvery == 0;
            if (abort) {
                producer.flush();
                producer.abortTransaction();
                aborted++;
            } else {
                producer.commitTransaction();
                committed++;
            }
            System.out.println("{\"txn\":" + i + ",\"committed\":" + !abort + "}");
        }
        producer.close();
        System.out.println("{\"committed\":" + committed + ",\"aborted\":" + aborted + "}");
        return 0;
    }

    private static int consume(Map<String, String> opts) throws Exception {
        String topic = need(opts, "topic");
        String isolation = opts.getOrDefault("isolation", "read_committed");
        int max = Integer.parseInt(opts.getOrDefault("max", "1000000"));
        long timeoutMs = Long.parseLong(opts.getOrDefault("timeout-ms", "10000"));
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer(opts, opts.get("group"), isolation)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic)) {
                tps.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            long deadline = System.currentTimeMillis() + timeoutMs;
            while (values.size() < max && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, String> r : records) {
                    values.add(r.value());
                    System.out.println("{\"partition\":" + r.partition() + ",\"offset\":" + r.offset()
                            + ",\"value\":" + json(r.value()) + "}");
                }
            }
        }
        System.out.println("{\"consumed\":" + values.size() + "}");
        return 0;
    }

    private static int etl(Map<String, String> opts) throws Exception {
        String in = need(opts, "in");
        String out = need(opts, "out");
        String group = need(opts, "group");
        int max = Integer.parseInt(need(opts, "max"));
        long timeoutMs = Long.parseLong(opts.getOrDefault("timeout-ms", "30000"));
        int done = 0;
        try (KafkaProducer<String, String> producer = producer(opts, need(opts, "transactional-id"));
             KafkaConsumer<String, String> consumer = consumer(opts, group, "read_committed")) {
            producer.initTransactions();
            consumer.subscribe(List.of(in));
            long deadline = System.currentTimeMillis() + timeoutMs;
            while (done < max && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                if (records.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                for (ConsumerRecord<String, String> r : records) {
                    producer.send(new ProducerRecord<>(out, r.key(), r.value().toUpperCase()));
                    offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                    done++;
                }
                producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                producer.commitTransaction();
            }
        }
        System.out.println("{\"transformed\":" + done + "}");
        return 0;
    }

    private static int fence(Map<String, String> opts) throws Exception {
        String topic = need(opts, "topic");
        String id = need(opts, "transactional-id");
        KafkaProducer<String, String> first = producer(opts, id);
        first.initTransactions();
        first.beginTransaction();
        first.send(new ProducerRecord<>(topic, 0, "k", "zombie-1")).get();
        KafkaProducer<String, String> second = producer(opts, id);
        second.initTransactions();  // fences the first and aborts its transaction
        String error = "none";
        try {
            first.send(new ProducerRecord<>(topic, 0, "k", "zombie-2")).get();
            first.commitTransaction();
        } catch (Exception e) {
            Throwable t = e.getCause() != null && e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
            error = t.getClass().getSimpleName();
        }
        second.beginTransaction();
        second.send(new ProducerRecord<>(topic, 0, "k", "new-1"));
        second.commitTransaction();
        second.close();
        first.close(Duration.ZERO);
        System.out.println("{\"zombie_error\":" + json(error) + "}");
        return 0;
    }

    private static int offsets(Map<String, String> opts) throws Exception {
        String topic = need(opts, "topic");
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, need(opts, "bootstrap"));
        props.putAll(EXTRA);
        try (Admin admin = Admin.create(props)) {
            int n = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            for (int p = 0; p < n; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
                earliest.put(new TopicPartition(topic, p), OffsetSpec.earliest());
            }
            ListOffsetsResult e = admin.listOffsets(earliest);
            ListOffsetsResult u = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED));
            ListOffsetsResult c = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
            for (int p = 0; p < n; p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                System.out.println("{\"partition\":" + p + ",\"earliest\":" + e.partitionResult(tp).get().offset()
                        + ",\"high_watermark\":" + u.partitionResult(tp).get().offset()
                        + ",\"last_stable\":" + c.partitionResult(tp).get().offset() + "}");
            }
        }
        return 0;
    }

    private static int committed(Map<String, String> opts) throws Exception {
        String topic = need(opts, "topic");
        try (KafkaConsumer<String, String> consumer = consumer(opts, need(opts, "group"), "read_committed")) {
            List<TopicPartition> tps = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            Map<TopicPartition, OffsetAndMetadata> got =
                    consumer.committed(new java.util.HashSet<>(tps), Duration.ofSeconds(30));
            for (TopicPartition tp : tps) {
                OffsetAndMetadata om = got.get(tp);
                System.out.println("{\"partition\":" + tp.partition() + ",\"committed\":"
                        + (om == null ? -1 : om.offset()) + "}");
            }
        }
        return 0;
    }

    static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                b.append('\\').append(ch);
            } else if (ch < 0x20) {
                b.append(String.format("\\u%04x", (int) ch));
            } else {
                b.append(ch);
            }
        }
        return b.append('"').toString();
    }
}
