import java.util.ArrayList;
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

    // letter grade for a mark
    public char toLetter(double mark)
    {
        if (mark >= 90) { return 'A'; }
        else if (mark >= 80) { return 'B'; }
        else if (mark >= 70) { return 'C'; }
        else if (mark >= 60) { return 'D'; }
        return 'F';
    }

    public double mean()
    {
        if (scores.isEmpty()) { return 0.0; }
        int sum = 0;
        for (int x : scores) { sum += x; }
        return (double) sum / scores.size();
    }

    public int maximum()
    {
        int top = Integer.MIN_VALUE;
        for (int x : scores) {
            if (x > top) { top = x; }
        }
        return top;
    }

    public String summary()
    {
        double m = mean();
        StringBuilder sb = new StringBuilder();
        sb.append("count: ").append(scores.size()).append('\n');
        sb.append("average: ").append(String.format("%.2f", m)).append('\n');
        sb.append("highest: ").append(maximum()).append('\n');
        sb.append("grade: ").append(toLetter(m)).append('\n');
        return sb.toString();
    }

    public static void main(String[] args) {
        Grades grades = new Grades();
        for (String arg : args) {
            grades.add(Integer.parseInt(arg));
        }
        System.out.println(grades.summary());
    }
}
