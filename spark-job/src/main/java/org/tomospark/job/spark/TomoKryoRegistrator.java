package org.tomospark.job.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import org.apache.spark.SparkConf;
import org.apache.spark.serializer.KryoRegistrator;
import org.tomospark.executor.pipeline.GroupPlanner;
import org.tomospark.job.outputs.OutputCommit;

/**
 * Registers every class the job sends through Spark's serializer, so the job runs with
 * {@code spark.kryo.registrationRequired=true}. The job's records are immutable Java records, which Kryo 4's
 * field serializer cannot construct; they are registered with Kryo's {@link JavaSerializer} (their canonical
 * constructors re-validate on read).
 */
public final class TomoKryoRegistrator implements KryoRegistrator {
    /** The Spark settings that select Kryo with this registrator. */
    public static void configure(SparkConf conf) {
        conf.set("spark.serializer", "org.apache.spark.serializer.KryoSerializer");
        conf.set("spark.kryo.registrator", TomoKryoRegistrator.class.getName());
    }

    @Override
    public void registerClasses(Kryo kryo) {
        JavaSerializer java = new JavaSerializer();
        kryo.register(JobPlan.class, java);
        kryo.register(GroupPlanner.Group.class, java);
        kryo.register(GroupPlanner.Group[].class);
        kryo.register(GroupOutcome.class, java);
        kryo.register(GroupOutcome[].class);
        kryo.register(OutputCommit.Committed.class, java);
        kryo.register(SliceProfile.class, java);
        kryo.register(SliceProfile[].class);
        kryo.register(Object[].class);
    }
}
