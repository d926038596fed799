import java.util.ArrayList;
import java.util.Collections;
import java.util.IntSummaryStatistics;
import java.util.List;

/** Lab 5: grade statistics.  Implement the methods marked TODO. */
public class Grades {
    private final List<Integer> scores = new ArrayList<>();

    public void add(int score) {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score out of range: " + score);
        }
        scores.add(score);
    }

    private static final int[] CUTOFFS = {90, 80, 70, 60};
    private static final String LETTERS = "ABCDF";

    public String summary() {
        IntSummaryStatistics stats = scores.stream().mapToInt(Integer::intValue).summaryStatistics();
        double mean = stats.getCount() == 0 ? 0.0 : stats.getAverage();
        int i = 0;
        while (i < CUTOFFS.length && mean < CUTOFFS[i]) {
            i++;
        }
        return String.join("\n",
            "count: " + stats.getCount(),
            "average: " + String.format("%.2f", mean),
            "highest: " + (scores.isEmpty() ? Integer.MIN_VALUE : Collections.max(scores)),
            "grade: " + LETTERS.charAt(i)) + "\n";
    }

    public static void main(String[] args) {
        Grades grades = new Grades();
        for (String arg : args) {
            grades.add(Integer.parseInt(arg));
        }
        System.out.println(grades.summary());
    }
}
