package dev.forage.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ResultLineTest {
    @Test
    void resultLinesRoundTripTheirValuesExactly() {
        ResultLine line = ResultLine.result("fib-join", "forkjoin", 2, "time", List.of(1.5, 0.1 + 0.2, 1e-9));
        ResultLine back = ResultLine.parse(line.format());
        assertEquals(ResultLine.Type.RESULT, back.type);
        assertEquals("fib-join", back.scenario);
        assertEquals("forkjoin", back.subject);
        assertEquals(2, back.threads);
        assertEquals("time", back.key);
        assertEquals(List.of(1.5, 0.1 + 0.2, 1e-9), back.values);
    }

    @Test
    void infoValuesMayContainSpacesAndEqualsSigns() {
        ResultLine line = ResultLine.info("idle", "default", 8, "jvm", "OpenJDK 64-Bit a=b,c");
        ResultLine back = ResultLine.parse(line.format());
        assertEquals("OpenJDK 64-Bit a=b,c", back.value);
        assertEquals(8, back.threads);
    }

    @Test
    void percentilesSurviveTheHistogramEncoding() {
        Histogram h = new Histogram(10_000_000_000L, 3);
        for (int us = 1; us <= 1000; us++) {
            h.recordValue(us * 1000L); // 1 µs .. 1000 µs in ns
        }
        ResultLine back = ResultLine.parse(ResultLine.histogram("wakeup-outside", "forkjoin", 2, "latency", h).format());
        Histogram decoded = back.decodeHistogram();
        assertEquals(1000, decoded.getTotalCount());
        // 3 significant digits: the value at a percentile is within 0.1 % of the true one.
        assertEquals(500.0, decoded.getValueAtPercentile(50) / 1e3, 0.5);
        assertEquals(990.0, decoded.getValueAtPercentile(99) / 1e3, 1.0);
        assertEquals(h.getValueAtPercentile(99.9), decoded.getValueAtPercentile(99.9));
    }

    @Test
    void otherOutputIsIgnored() {
        assertNull(ResultLine.parse("Picked up JAVA_TOOL_OPTIONS: -Dfoo"));
        assertNull(ResultLine.parse(""));
    }

    @Test
    void malformedProtocolLinesFailWithTheLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ResultLine.parse("@@forage-bench RESULT scenario=a subject=b threads=2 key=time values=1.0,x"));
        assertEquals(true, e.getMessage().contains("'x' is not a number"));
        assertThrows(IllegalArgumentException.class,
                () -> ResultLine.parse("@@forage-bench RESULT scenario=a subject=b threads=2 values=1.0"));
        assertThrows(IllegalArgumentException.class,
                () -> ResultLine.parse("@@forage-bench BOGUS scenario=a subject=b threads=2 key=k value=v"));
        assertThrows(IllegalArgumentException.class,
                () -> ResultLine.parse("@@forage-bench INFO scenario=a subject=b threads=two key=k value=v"));
    }

    @Test
    void runDataPoolsSamplesAndMergesHistogramsAcrossForks() {
        RunData data = new RunData();
        data.add(ResultLine.result("s", "x", 2, "time", List.of(3.0, 1.0)));
        data.add(ResultLine.result("s", "x", 2, "time", List.of(2.0)));
        Histogram a = new Histogram(3);
        a.recordValue(10);
        Histogram b = new Histogram(3);
        b.recordValue(20);
        b.recordValue(30);
        data.add(ResultLine.histogram("s", "x", 2, "latency", a));
        data.add(ResultLine.histogram("s", "x", 2, "latency", b));
        Stats st = data.stats("s", "x", "time");
        assertEquals(2.0, st.median);
        assertEquals(1.0, st.min);
        assertEquals(3.0, st.max);
        assertEquals(3, data.histogram("s", "x", "latency").getTotalCount());
        assertNull(data.stats("s", "y", "time"));
    }
}
