package sharebroker.peers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Command-line driver for the Apache Kafka Java clients, used by tests/compat.
 *
 * <pre>
 * produce       --bootstrap B --topic T --count N
 * share-consume --bootstrap B --topic T --group G --mode implicit|explicit --max N --timeout-ms MS
 *               [--release-first K] [--reject-first K] [--renew-first K] [--crash-after-polls P]
 *               [--poll-sleep-ms S] [--process-ms S] [--times]
 * admin         --bootstrap B set-group-config G key value
 *               | describe-share-group G | list-share-group-offsets G
 *               | alter-share-group-offsets G topic partition offset | delete-share-group G
 * </pre>
 *
 * Any command also takes {@code --prop key=value} (repeatable) for extra client properties,
 * e.g. {@code --prop share.acquire.mode=record_limit --prop max.poll.records=3}.
 * Output on stdout is one JSON object per line (records carry the index of their poll).
 * {@code --wire-log} (any command) turns on
 * the client's NetworkClient debug log on stderr, which names every request's api version.
 */
public final class ShareTool {

    private static final Properties EXTRA = new Properties();
    // --times (share-consume): print when it subscribed and when its first record arrived (ms).
    private static boolean times;

    private ShareTool() {}

    public static void main(String[] argv) throws Exception {
        List<String> args = new ArrayList<>(List.of(argv));
        boolean wireLog = args.remove("--wire-log");
        times = args.remove("--times");
        // --prop key=value (repeatable): extra client properties.
        for (int i = 0; i < args.size() - 1; ) {
            if (args.get(i).equals("--prop")) {
                String kv = args.get(i + 1);
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    usage();
                }
                EXTRA.put(kv.substring(0, eq), kv.substring(eq + 1));
                args.remove(i);
                args.remove(i);
            } else {
                i++;
            }
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        if (wireLog) {
            System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka.clients.NetworkClient", "debug");
        }
        if (args.isEmpty()) {
            usage();
        }
        String command = args.remove(0);
        int rc;
        switch (command) {
            case "produce":
                rc = produce(options(args));
                break;
            case "share-consume":
                rc = shareConsume(options(args));
                break;
            case "admin":
                rc = admin(args);
                break;
            default:
                usage();
                rc = 2;
        }
        System.out.flush();
        System.exit(rc);
    }

    private static void usage() {
        System.err.println("usage: ShareTool [--wire-log] [--prop k=v ...] produce --bootstrap B --topic T --count N");
        System.err.println("       ShareTool [--wire-log] share-consume --bootstrap B --topic T --group G"
                + " --mode implicit|explicit --max N --timeout-ms MS [--release-first K] [--reject-first K] [--renew-first K] [--crash-after-polls P] [--poll-sleep-ms S] [--process-ms S]");
        System.err.println("       ShareTool [--wire-log] admin --bootstrap B set-group-config G key value"
                + " | describe-share-group G | list-share-group-offsets G"
                + " | alter-share-group-offsets G topic partition offset | delete-share-group G");
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

    private static int produce(Map<String, String> opts) throws Exception {
        String topic = need(opts, "topic");
        int count = Integer.parseInt(need(opts, "count"));
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, need(opts, "bootstrap"));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.putAll(EXTRA);
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, "k-" + i, "v-" + i)));
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        }
        System.out.println("{\"produced\":" + count + ",\"topic\":" + json(topic) + "}");
        return 0;
    }

    private static int shareConsume(Map<String, String> opts) throws Exception {
        String topic = need(opts, "topic");
        String mode = opts.getOrDefault("mode", "implicit");
        if (!mode.equals("implicit") && !mode.equals("explicit")) {
            usage();
        }
        boolean explicit = mode.equals("explicit");
        int max = Integer.parseInt(need(opts, "max"));
        long timeoutMs = Long.parseLong(opts.getOrDefault("timeout-ms", "30000"));
        int releaseFirst = Integer.parseInt(opts.getOrDefault("release-first", "0"));
        int rejectFirst = Integer.parseInt(opts.getOrDefault("reject-first", "0"));
        int renewFirst = Integer.parseInt(opts.getOrDefault("renew-first", "0"));
        // --crash-after-polls P: halt the JVM (no close, no acks) after P non-empty polls.
        int crashAfterPolls = Integer.parseInt(opts.getOrDefault("crash-after-polls", "0"));
        // --poll-sleep-ms S: simulate processing time after each non-empty poll.
        long pollSleepMs = Long.parseLong(opts.getOrDefault("poll-sleep-ms", "0"));
        // --process-ms S: explicit mode, sleep before acknowledging each poll (lets locks expire).
        long processMs = Long.parseLong(opts.getOrDefault("process-ms", "0"));
        List<String> commitErrors = new ArrayList<>();
        if (!explicit && (releaseFirst > 0 || rejectFirst > 0 || renewFirst > 0)) {
            System.err.println("--release-first/--reject-first/--renew-first need --mode explicit");
            return 2;
        }

        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, need(opts, "bootstrap"));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, need(opts, "group"));
        props.put("share.acknowledgement.mode", mode);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "sharetool");
        props.putAll(EXTRA);

        int accepted = 0;
        int released = 0;
        int rejected = 0;
        int renewed = 0;
        int seen = 0;
        int polls = 0;
        String error = null;
        long deadline = System.currentTimeMillis() + timeoutMs;
        try (KafkaShareConsumer<String, String> consumer =
                     new KafkaShareConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            if (times) {
                System.out.println("{\"subscribed\":true,\"atMs\":" + System.currentTimeMillis() + "}");
            }
            consumer.subscribe(List.of(topic));
            while (accepted < max && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                if (!records.isEmpty()) {
                    if (times && polls == 0) {
                        System.out.println("{\"firstRecord\":true,\"atMs\":" + System.currentTimeMillis() + "}");
                        System.out.flush();
                    }
                    polls++;
                    if (processMs > 0) {
                        Thread.sleep(processMs);
                    }
                }
                for (ConsumerRecord<String, String> r : records) {
                    seen++;
                    String action = "accept";
                    if (explicit) {
                        AcknowledgeType type = AcknowledgeType.ACCEPT;
                        if (rejected < rejectFirst) {
                            type = AcknowledgeType.REJECT;
                            action = "reject";
                            rejected++;
                        } else if (renewed < renewFirst) {
                            type = AcknowledgeType.RENEW;
                            action = "renew";
                            renewed++;
                        } else if (released < releaseFirst) {
                            type = AcknowledgeType.RELEASE;
                            action = "release";
                            released++;
                        } else {
                            accepted++;
                        }
                        consumer.acknowledge(r, type);
                    } else {
                        accepted++;
                    }
                    System.out.println("{\"topic\":" + json(r.topic())
                            + ",\"partition\":" + r.partition()
                            + ",\"offset\":" + r.offset()
                            + ",\"deliveryCount\":" + r.deliveryCount().map(String::valueOf).orElse("null")
                            + ",\"value\":" + json(r.value())
                            + ",\"ack\":" + json(action)
                            + ",\"poll\":" + polls + "}");
                }
                if (crashAfterPolls > 0 && polls >= crashAfterPolls) {
                    System.out.println("{\"crash\":true,\"polls\":" + polls + "}");
                    System.out.flush();
                    Runtime.getRuntime().halt(3);
                }
                if (explicit && !records.isEmpty()) {
                    consumer.commitSync().forEach((tip, err) -> err.ifPresent(
                            e -> commitErrors.add(tip.topic() + "-" + tip.partition() + ": " + e)));
                }
                if (pollSleepMs > 0 && !records.isEmpty()) {
                    Thread.sleep(pollSleepMs);
                }
            }
            if (!explicit && seen > 0) {
                // Implicit mode: the last poll's records are accepted by the next poll or commit.
                consumer.commitSync();
            }
        } catch (Exception e) {
            error = e.toString();
        }
        System.out.println("{\"summary\":true,\"mode\":" + json(mode)
                + ",\"records\":" + seen + ",\"polls\":" + polls + ",\"accepted\":" + accepted
                + ",\"released\":" + released + ",\"rejected\":" + rejected + ",\"renewed\":" + renewed
                + ",\"timedOut\":" + (accepted < max)
                + ",\"commitErrors\":[" + String.join(",", commitErrors.stream().map(ShareTool::json).toList()) + "]"
                + ",\"error\":" + (error == null ? "null" : json(error)) + "}");
        return error == null ? 0 : 1;
    }

    private static int admin(List<String> args) throws Exception {
        // admin --bootstrap B set-group-config G key value
        //       --bootstrap B describe-share-group G
        //       --bootstrap B list-share-group-offsets G
        //       --bootstrap B alter-share-group-offsets G topic partition offset
        //       --bootstrap B delete-share-group G
        if (args.size() < 4 || !args.get(0).equals("--bootstrap")) {
            usage();
        }
        String sub = args.get(2);
        String group = args.get(3);
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args.get(1));
        props.putAll(EXTRA);
        try (Admin admin = Admin.create(props)) {
            switch (sub) {
                case "set-group-config": {
                    if (args.size() != 6) {
                        usage();
                    }
                    ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
                    Collection<AlterConfigOp> ops = List.of(new AlterConfigOp(
                            new ConfigEntry(args.get(4), args.get(5)), AlterConfigOp.OpType.SET));
                    admin.incrementalAlterConfigs(Map.of(resource, ops)).all().get();
                    System.out.println("{\"group\":" + json(group) + ",\"set\":" + json(args.get(4))
                            + ",\"value\":" + json(args.get(5)) + "}");
                    return 0;
                }
                case "describe-share-group": {
                    ShareGroupDescription d = admin.describeShareGroups(List.of(group)).all().get().get(group);
                    List<String> members = new ArrayList<>();
                    for (ShareMemberDescription m : d.members()) {
                        List<String> parts = new ArrayList<>();
                        for (TopicPartition tp : m.assignment().topicPartitions()) {
                            parts.add(json(tp.topic() + "-" + tp.partition()));
                        }
                        members.add("{\"memberId\":" + json(m.consumerId()) + ",\"clientId\":" + json(m.clientId())
                                + ",\"memberEpoch\":" + m.memberEpoch()
                                + ",\"assignment\":[" + String.join(",", parts) + "]}");
                    }
                    System.out.println("{\"group\":" + json(d.groupId())
                            + ",\"state\":" + json(String.valueOf(d.groupState()))
                            + ",\"groupEpoch\":" + d.groupEpoch()
                            + ",\"targetAssignmentEpoch\":" + d.targetAssignmentEpoch()
                            + ",\"coordinator\":" + (d.coordinator() == null ? "null" : d.coordinator().id())
                            + ",\"members\":[" + String.join(",", members) + "]}");
                    return 0;
                }
                case "list-share-group-offsets": {
                    Map<TopicPartition, SharePartitionOffsetInfo> offsets = admin
                            .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                            .partitionsToOffsetInfo(group).get();
                    for (Map.Entry<TopicPartition, SharePartitionOffsetInfo> e : offsets.entrySet()) {
                        SharePartitionOffsetInfo info = e.getValue();
                        System.out.println("{\"topic\":" + json(e.getKey().topic())
                                + ",\"partition\":" + e.getKey().partition()
                                + ",\"startOffset\":" + (info == null ? "null" : info.startOffset())
                                + ",\"lag\":" + (info == null ? "null" : info.lag().map(String::valueOf).orElse("null"))
                                + "}");
                    }
                    return 0;
                }
                case "alter-share-group-offsets": {
                    if (args.size() != 7) {
                        usage();
                    }
                    TopicPartition tp = new TopicPartition(args.get(4), Integer.parseInt(args.get(5)));
                    long offset = Long.parseLong(args.get(6));
                    admin.alterShareGroupOffsets(group, Map.of(tp, offset)).all().get();
                    System.out.println("{\"group\":" + json(group) + ",\"altered\":" + json(tp.toString())
                            + ",\"offset\":" + offset + "}");
                    return 0;
                }
                case "delete-share-group": {
                    admin.deleteShareGroups(List.of(group)).all().get();
                    System.out.println("{\"deleted\":" + json(group) + "}");
                    return 0;
                }
                default:
                    usage();
                    return 2;
            }
        }
    }

    private static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }
}
