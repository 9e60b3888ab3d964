package org.lbsim.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.lbsim.cli.sweep.SweepEngine;
import org.lbsim.cli.sweep.SweepRun;
import scala.collection.Iterator;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * {@code lbsim sweep --engine spark}: every run of the sweep is one Spark task (one partition of one
 * run), a whole simulation on an executor; each outcome comes back to the driver as its task ends and
 * the sweep command records it, so an interrupted sweep keeps what finished.
 */
public final class SparkSweepEngine implements SweepEngine {
    /** The master when neither --master nor spark-submit names one. */
    static final String DEFAULT_MASTER = "local[*]";

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public Execution start(List<SweepRun> runs, Settings settings, Listener listener) {
        SparkConf conf = conf(settings);
        JavaSparkContext spark = new JavaSparkContext(conf);
        settings.log().println("spark: " + (runs.size() == 1 ? "1 run as a task" : runs.size() + " runs as tasks") + " on " + spark.master() + " (application " + spark.sc().applicationId() + ")");
        // one partition per run: a task per simulation, and each result handed back as soon as it ends
        JavaRDD<SweepRun> rdd = spark.parallelize(runs, Math.max(1, runs.size()));
        AtomicBoolean closed = new AtomicBoolean();
        Thread driver = new Thread(() -> {
            try {
                spark.sc().runJob(rdd.rdd(), new RunPartition(), new Deliver(listener), ClassTag$.MODULE$.apply(SweepRun.Outcome.class));
            } catch (Throwable t) {
                // the job aborted, or Spark stopped by itself (e.g. a standalone master removed the application)
                if (!closed.get()) {
                    listener.failed(t);
                }
            }
        }, "lbsim-spark-job");
        driver.setDaemon(true);
        driver.start();
        return () -> {
            closed.set(true);
            if (!spark.sc().isStopped()) {
                spark.sc().cancelAllJobs();
            }
            spark.stop();
        };
    }

    /** Spark's configuration: spark.* from spark-submit or the JVM, then --master and --engine-conf. */
    static SparkConf conf(Settings settings) {
        SparkConf conf = new SparkConf(true).setAppName("lbsim sweep " + settings.sweep());
        if (settings.master() != null) {
            conf.setMaster(settings.master());
        } else {
            conf.setIfMissing("spark.master", DEFAULT_MASTER);
        }
        // the sweep prints its own progress line; on one machine the web UI only costs start-up time
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        if (conf.get("spark.master").startsWith("local")) {
            conf.setIfMissing("spark.ui.enabled", "false");
        }
        // the cap on a job's results adds up every run's; the driver records each as it arrives and keeps none
        conf.setIfMissing("spark.driver.maxResultSize", "0");
        for (Map.Entry<String, String> e : settings.conf().entrySet()) {
            conf.set(e.getKey(), e.getValue());
        }
        return conf;
    }

    /** On an executor: the partition's runs (one), simulated. */
    static final class RunPartition extends AbstractFunction1<Iterator<SweepRun>, SweepRun.Outcome> implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public SweepRun.Outcome apply(Iterator<SweepRun> runs) {
            List<SweepRun.Outcome> outcomes = new ArrayList<>(1);
            while (runs.hasNext()) {
                outcomes.add(runs.next().run());
            }
            if (outcomes.size() != 1) {
                throw new IllegalStateException("a partition of the sweep holds " + outcomes.size() + " runs, expected 1");
            }
            return outcomes.get(0);
        }
    }

    /** On the driver, as each task ends: its outcome to the sweep command. */
    static final class Deliver extends AbstractFunction2<Object, SweepRun.Outcome, BoxedUnit> {
        private final Listener listener;

        Deliver(Listener listener) {
            this.listener = listener;
        }

        @Override
        public BoxedUnit apply(Object partition, SweepRun.Outcome outcome) {
            listener.ended(outcome);
            return BoxedUnit.UNIT;
        }
    }
}
