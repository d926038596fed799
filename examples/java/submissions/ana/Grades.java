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

    public double average() {
        if (scores.isEmpty()) {
            return 0.0;
        }
        int total = 0;
        for (int s : scores) {
            total += s;
        }
        return (double) total / scores.size();
    }

    public int highest() {
        int best = Integer.MIN_VALUE;
        for (int s : scores) {
            if (s > best) {
                best = s;
            }
        }
        return best;
    }

    public char letter(double value) {
        if (value >= 90) {
            return 'A';
        } else if (value >= 80) {
            return 'B';
        } else if (value >= 70) {
            return 'C';
        } else if (value >= 60) {
            return 'D';
        }
        return 'F';
    }

    public String summary() {
        double avg = average();
        StringBuilder out = new StringBuilder();
        out.append("count: ").append(scores.size()).append('\n');
        out.append("average: ").append(String.format("%.2f", avg)).append('\n');
        out.append("highest: ").append(highest()).append('\n');
        out.append("grade: ").append(letter(avg)).append('\n');
        return out.toString();
    }

    public static void main(String[] args) {
        Grades grades = new Grades();
        for (String arg : args) {
            grades.add(Integer.parseInt(arg));
        }
        System.out.println(grades.summary());
    }
}
