// The notebook API from Java, one statement at a time as jshell (or a Jupyter Java kernel) runs it. jshell ends a
// statement at the first line that could end it, so a chain that goes on ends its line with a dot (and an
// expression is kept on one line).
//   jshell --class-path "<Spark's jars>:notebook/target/tomospark-notebook-<version>.jar" \
//          -R--add-modules=jdk.incubator.vector <Spark's -R--add-opens flags> notebooks/tomospark.jsh
// It writes a demo scan (axis at 127.5) and reconstructs it into folders under TOMOSPARK_OUTPUT (default: a new
// temporary folder), on a local Spark context of its own; with your own scan, set input and the centre below.
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.tomospark.executor.phantom.DemoDataset;
import org.tomospark.notebook.Reconstruction;

var spark = new SparkContext(new SparkConf().setMaster("local[2]").setAppName("tomospark-jshell").
        set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1").
        set("spark.ui.enabled", "false"));
var outDir = System.getenv("TOMOSPARK_OUTPUT");
var out = outDir != null ? Path.of(outDir) : Files.createTempDirectory("tomospark-jshell");
var input = out.resolve("demo.h5").toString();
new DemoDataset(DemoDataset.Spec.demo().withSize(256, 8, 180)).writeHdf5(Path.of(input));

// a reconstruction with a given centre
var result = Reconstruction.builder(spark).input(input).output(out.resolve("rec").toString()).
        center(127.5).filter("shepp-logan").backend("auto").overwrite().run();
System.out.println(result.summary());

// the centre found from the data, a sweep around it, and a run with centre auto (builders never change)
var b = Reconstruction.builder(spark).input(input).centerAuto("vo").filter("shepp-logan").backend("auto");
var c = b.findCenter();
var sweep = b.output(out.resolve("rec-sweep").toString()).overwrite().
        centerSweep(Math.floor(c) - 2, Math.floor(c) + 2, 1);
System.out.println(sweep.images() + " and " + sweep.contactSheet() + " in " + sweep.output());
var auto = b.output(out.resolve("rec-auto").toString()).overwrite().run();
System.out.printf("centre %.2f, %.2f GU/s on %s%n", auto.centerOfRotation(), auto.report().number("timings.gups"),
        auto.report().text("backend.id"));

// resume the first output: it is complete, so there is nothing to do
var resumed = Reconstruction.builder(spark).input(input).output(out.resolve("rec").toString()).
        center(127.5).filter("shepp-logan").backend("auto").resume().run();
System.out.println("computed " + resumed.slicesComputed() + ", reused " + resumed.slicesSkipped());

var complete = Files.exists(out.resolve("rec/_SUCCESS")) && Files.exists(out.resolve("rec-auto/_SUCCESS"));
var ok = complete && Math.abs(c - 127.5) < 0.5 && sweep.images().size() == 5 && resumed.slicesComputed() == 0;
System.out.println("tomospark.jsh: " + (ok ? "OK" : "FAILED"));
spark.stop();
/exit ok ? 0 : 1
