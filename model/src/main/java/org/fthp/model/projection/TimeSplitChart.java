package org.fthp.model.projection;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.fthp.model.sim.TimeSplit;
import org.fthp.model.strategy.Strategy;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;

/** Where the wall time goes, stacked bars per process count and strategy (the paper's Fig. 12). */
public final class TimeSplitChart {

    private record Part(String label, Color colour, ToDoubleFunction<TimeSplit> share) {}

    private static final List<Part> PARTS = List.of(
            new Part("useful work", new Color(0x009E73), TimeSplit::useful),
            new Part("checkpoint writes", new Color(0x0072B2), TimeSplit::checkpoint),
            new Part("restarts / restores", new Color(0xE69F00), TimeSplit::restart),
            new Part("rollback (lost work + repair)", new Color(0xD55E00), TimeSplit::rollback),
            new Part("log trimming", new Color(0x999999), TimeSplit::logTrim));

    private TimeSplitChart() {}

    /** Bars for the given process counts only (all of them would crowd the picture). */
    public static void write(Path png, Scenario scenario, List<ProjectionPoint> points, Set<Integer> counts)
            throws IOException {
        List<String> categories = new ArrayList<>();
        List<TimeSplit> shares = new ArrayList<>();
        for (ProjectionPoint p : points) {
            if (counts.contains(p.processes())) {
                categories.add(countLabel(p.processes()) + " " + shortLabel(p.setup().strategy()));
                shares.add(p.estimate().split().shares());
            }
        }
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(560)
                .title("Where the time goes: " + scenario.title())
                .xAxisTitle("processes and strategy (C/R: checkpoint/restart, Rep: replication, Rep+C: both)")
                .yAxisTitle("share of wall time (%)").build();
        chart.getStyler().setStacked(true);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(100.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(45);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        chart.getStyler().setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        chart.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        chart.getStyler().setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        for (Part part : PARTS) {
            List<Double> values = new ArrayList<>();
            for (TimeSplit s : shares) {
                values.add(100 * part.share().applyAsDouble(s));
            }
            CategorySeries series = chart.addSeries(part.label(), categories, values);
            series.setFillColor(part.colour());
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    static String countLabel(int processes) {
        if (processes >= 1 << 20 && processes % (1 << 20) == 0) {
            return (processes >> 20) + "M";
        }
        if (processes >= 1024 && processes % 1024 == 0) {
            return (processes >> 10) + "k";
        }
        return String.format(Locale.ROOT, "%d", processes);
    }

    private static String shortLabel(Strategy strategy) {
        return switch (strategy) {
            case CHECKPOINT_RESTART -> "C/R";
            case REPLICATION -> "Rep";
            case REPLICATION_CHECKPOINT -> "Rep+C";
        };
    }
}
