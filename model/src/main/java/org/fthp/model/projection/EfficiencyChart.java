package org.fthp.model.projection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.fthp.model.strategy.Strategy;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** Efficiency against process count, one line per strategy, log-scale processes (the paper's Fig. 11). */
public final class EfficiencyChart {

    static final Color[] COLOURS = {new Color(0xD55E00), new Color(0x0072B2), new Color(0x009E73)};

    private EfficiencyChart() {}

    public static void write(Path png, Scenario scenario, List<ProjectionPoint> points, OptionalDouble crossover)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(560).title(scenario.title())
                .xAxisTitle("processes (log scale)")
                .yAxisTitle("expected efficiency (work per process / failure-free)").build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        chart.getStyler().setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        chart.getStyler().setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        chart.getStyler().setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        chart.getStyler().setXAxisDecimalPattern("#,###");
        chart.getStyler().setYAxisDecimalPattern("0.0");
        chart.getStyler().setPlotGridLinesVisible(true);
        Strategy[] strategies = Strategy.values();
        for (int s = 0; s < strategies.length; s++) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (ProjectionPoint p : points) {
                if (p.setup().strategy() == strategies[s]) {
                    x.add((double) p.processes());
                    y.add(p.estimate().efficiencyExpected());
                }
            }
            XYSeries series = chart.addSeries(strategies[s].label(), x, y);
            series.setLineColor(COLOURS[s]);
            series.setMarkerColor(COLOURS[s]);
            series.setMarker(s == 0 ? SeriesMarkers.CIRCLE : s == 1 ? SeriesMarkers.SQUARE : SeriesMarkers.DIAMOND);
            // replication + checkpoints is often on replication's line (no checkpoint falls within a
            // short job): dashed over solid keeps both visible
            series.setLineStyle(strategies[s] == Strategy.REPLICATION_CHECKPOINT
                    ? new BasicStroke(2.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {9, 6}, 0)
                    : new BasicStroke(s == 1 ? 4f : 2.2f));
        }
        if (crossover.isPresent()) {
            chart.getStyler().setAnnotationLineColor(Color.GRAY);
            chart.getStyler().setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            chart.getStyler().setAnnotationTextFontColor(Color.DARK_GRAY);
            chart.getStyler().setAnnotationLineStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
            chart.addAnnotation(new AnnotationLine(crossover.getAsDouble(), true, false));
            chart.addAnnotation(new AnnotationText(String.format(Locale.ROOT, "crossover %,.0f processes",
                    crossover.getAsDouble()), crossover.getAsDouble(), 0.06, false));
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
