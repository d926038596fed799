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

    public static void main(String[] args) {
        Grades grades = new Grades();
        for (String arg : args) {
            grades.add(Integer.parseInt(arg));
        }
        System.out.println(grades.summary());
    }
}
