package dev.sluice.api;

import dev.sluice.internal.error.Errors;
import dev.sluice.api.Expression.Op;
import dev.sluice.internal.read.expr.ExpressionText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the {@code --where} syntax into an {@link Expression}.
 *
 * <pre>
 * expr      := and ('or' and)*
 * and       := not ('and' not)*
 * not       := 'not' not | '(' expr ')' | predicate
 * predicate := column op literal | column ['not'] 'in' '(' literal (',' literal)* ')'
 *            | column 'is' ['not'] 'null'
 * op        := '=' | '==' | '!=' | '&lt;&gt;' | '&lt;' | '&lt;=' | '&gt;' | '&gt;='
 * column    := name ('.' name)*        name: letters, digits, '_' or `any text` (`` for a backtick)
 * literal   := 'string' ('' is a quote) | integer | decimal | true | false | null
 * </pre>
 *
 * <p>Keywords are case-insensitive; {@code not} binds tighter than {@code and}, which binds tighter than
 * {@code or}. Errors name the 1-based character position.
 */
public final class ExpressionParser {
  private final String text;
  private final List<Token> tokens;
  private int next;

  private ExpressionParser(String text, List<Token> tokens) {
    this.text = text;
    this.tokens = tokens;
  }

  /**
   * Parses {@code text}.
   *
   * @throws SluiceException (BAD_CONFIG) naming the position of the first error
   */
  public static Expression parse(String text) {
    if (text == null || text.isBlank()) {
      throw Errors.badRequest(ExpressionText.WHAT, "the expression is empty",
          "Write a predicate such as: ts > 100 and part = 'p1'.");
    }
    ExpressionParser parser = new ExpressionParser(text, new Lexer(text).tokens());
    Expression e = parser.orExpr();
    Token end = parser.peek();
    if (end.type() != Kind.END) {
      throw parser.unexpected(end, "Expected 'and', 'or' or the end of the expression"
          + (end.type() == Kind.RPAREN ? "; check the parentheses balance." : "."));
    }
    return e;
  }

  private Expression orExpr() {
    Expression left = andExpr();
    while (peekKeyword("or")) {
      next++;
      left = new Expression.Or(left, andExpr());
    }
    return left;
  }

  private Expression andExpr() {
    Expression left = notExpr();
    while (peekKeyword("and")) {
      next++;
      left = new Expression.And(left, notExpr());
    }
    return left;
  }

  private Expression notExpr() {
    if (peekKeyword("not")) {
      next++;
      return new Expression.Not(notExpr());
    }
    if (peek().type() == Kind.LPAREN) {
      int open = peek().pos();
      next++;
      Expression inner = orExpr();
      Token close = peek();
      if (close.type() != Kind.RPAREN) {
        throw unexpected(close, "Expected ')' to close the '(' at position " + (open + 1)
            + ", or 'and'/'or'.");
      }
      next++;
      return inner;
    }
    return predicate();
  }

  private Expression predicate() {
    String column = column();
    Token t = peek();
    if (t.type() == Kind.OP) {
      next++;
      return new Expression.Comparison(column, op(t.text()), literal());
    }
    if (peekKeyword("in")) {
      next++;
      return new Expression.In(column, inList());
    }
    if (peekKeyword("not")) {
      next++;
      if (!peekKeyword("in")) {
        throw unexpected(peek(), "Expected 'in' after 'not' (column not in (...)).");
      }
      next++;
      return new Expression.Not(new Expression.In(column, inList()));
    }
    if (peekKeyword("is")) {
      next++;
      boolean negated = peekKeyword("not");
      if (negated) {
        next++;
      }
      if (!peekKeyword("null")) {
        throw unexpected(peek(), "Expected 'null' after 'is" + (negated ? " not" : "") + "'.");
      }
      next++;
      return negated ? new Expression.IsNotNull(column) : new Expression.IsNull(column);
    }
    throw unexpected(t, "Expected an operator after column " + ExpressionText.column(column)
        + ": =, !=, <, <=, >, >=, in, not in, is null or is not null.");
  }

  private String column() {
    StringBuilder sb = new StringBuilder(name());
    while (peek().type() == Kind.DOT) {
      next++;
      sb.append('.').append(name());
    }
    return sb.toString();
  }

  private String name() {
    Token t = peek();
    boolean bare = t.type() == Kind.NAME && !ExpressionText.KEYWORDS.contains(lower(t.text()));
    if (!bare && t.type() != Kind.QUOTED_NAME) {
      String hint = t.type() == Kind.NAME ? " Quote a column named like a keyword in backticks: `" + t.text() + "`." : "";
      throw unexpected(t, "Expected a column name, 'not' or '('." + hint);
    }
    next++;
    return t.value();
  }

  private List<Object> inList() {
    if (peek().type() != Kind.LPAREN) {
      throw unexpected(peek(), "Expected '(' and a list of values after 'in'.");
    }
    next++;
    List<Object> values = new ArrayList<>();
    values.add(literal());
    while (peek().type() == Kind.COMMA) {
      next++;
      values.add(literal());
    }
    if (peek().type() != Kind.RPAREN) {
      throw unexpected(peek(), "Expected ',' or ')' in the in-list.");
    }
    next++;
    return values;
  }

  private Object literal() {
    Token t = peek();
    switch (t.type()) {
      case STRING:
        next++;
        return t.value();
      case NUMBER:
        next++;
        return number(t.text());
      case NAME:
        String word = lower(t.text());
        if (word.equals("true") || word.equals("false") || word.equals("null")) {
          next++;
          return word.equals("null") ? null : Boolean.valueOf(word.equals("true"));
        }
        break;
      default:
        break;
    }
    throw unexpected(t, "Expected a value: a 'quoted string', a number, true, false or null.");
  }

  private static Object number(String digits) {
    boolean integral = digits.indexOf('.') < 0 && digits.indexOf('e') < 0 && digits.indexOf('E') < 0;
    if (integral) {
      try {
        return Long.parseLong(digits);
      } catch (NumberFormatException tooBig) {
        // Beyond the range of long: keep it exact as a decimal; binding reports it out of range if need be.
        return new BigDecimal(digits);
      }
    }
    return new BigDecimal(digits);
  }

  private static Op op(String symbol) {
    return switch (symbol) {
      case "=", "==" -> Op.EQ;
      case "!=", "<>" -> Op.NE;
      case "<" -> Op.LT;
      case "<=" -> Op.LE;
      case ">" -> Op.GT;
      case ">=" -> Op.GE;
      default -> throw Errors.internal("lexer produced unknown operator " + symbol, null);
    };
  }

  private Token peek() {
    return tokens.get(next);
  }

  private boolean peekKeyword(String keyword) {
    Token t = peek();
    return t.type() == Kind.NAME && lower(t.text()).equals(keyword);
  }

  private SluiceException unexpected(Token t, String fix) {
    return error("unexpected " + t.describe() + " at position " + (t.pos() + 1) + " in: " + text, fix);
  }

  private static SluiceException error(String problem, String fix) {
    return Errors.badRequest(ExpressionText.WHAT, problem, fix);
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  private enum Kind { NAME, QUOTED_NAME, STRING, NUMBER, OP, LPAREN, RPAREN, COMMA, DOT, END }

  /**
   * One token.
   *
   * @param type kind of token
   * @param text source text of the token
   * @param value decoded value (name without backticks, string without quotes), else the text
   * @param pos 0-based start offset in the expression
   */
  private record Token(Kind type, String text, String value, int pos) {
    String describe() {
      return type == Kind.END ? "end of input" : type == Kind.STRING || type == Kind.QUOTED_NAME ? text
          : "'" + text + "'";
    }
  }

  /** Splits the text into tokens. */
  private static final class Lexer {
    private final String text;
    private final List<Token> out = new ArrayList<>();
    private int pos;

    Lexer(String text) {
      this.text = text;
    }

    List<Token> tokens() {
      while (true) {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
          pos++;
        }
        if (pos >= text.length()) {
          out.add(new Token(Kind.END, "", "", pos));
          return out;
        }
        int start = pos;
        char c = text.charAt(pos);
        if (ExpressionText.isNameStart(c)) {
          while (pos < text.length() && ExpressionText.isNamePart(text.charAt(pos))) {
            pos++;
          }
          add(Kind.NAME, start, text.substring(start, pos));
        } else if (isDigit(c) || (c == '-' && pos + 1 < text.length() && isDigit(text.charAt(pos + 1)))) {
          number(start);
        } else if (c == '\'') {
          add(Kind.STRING, start, quoted('\'', "string"));
        } else if (c == '`') {
          quotedName(start);
        } else if (c == '(' || c == ')' || c == ',' || c == '.') {
          pos++;
          add(c == '(' ? Kind.LPAREN : c == ')' ? Kind.RPAREN : c == ',' ? Kind.COMMA : Kind.DOT, start, null);
        } else if (c == '=' || c == '!' || c == '<' || c == '>') {
          operator(start, c);
        } else {
          throw error("unexpected character '" + c + "' at position " + (start + 1) + " in: " + text,
              "Quote text values with single quotes and odd column names with backticks.");
        }
      }
    }

    private void number(int start) {
      if (text.charAt(pos) == '-') {
        pos++;
      }
      digits();
      if (pos + 1 < text.length() && text.charAt(pos) == '.' && isDigit(text.charAt(pos + 1))) {
        pos++;
        digits();
      }
      if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
        int mark = pos;
        pos++;
        if (pos < text.length() && (text.charAt(pos) == '+' || text.charAt(pos) == '-')) {
          pos++;
        }
        if (pos < text.length() && isDigit(text.charAt(pos))) {
          digits();
        } else {
          pos = mark; // not an exponent; the 'e' starts the next token
        }
      }
      add(Kind.NUMBER, start, null);
    }

    private void digits() {
      while (pos < text.length() && isDigit(text.charAt(pos))) {
        pos++;
      }
    }

    private void operator(int start, char c) {
      pos++;
      char n = pos < text.length() ? text.charAt(pos) : 0;
      if (n == '=' || (c == '<' && n == '>')) {
        pos++;
      } else if (c == '!') {
        throw error("unexpected character '!' at position " + (start + 1) + " in: " + text, "Use != for not equal.");
      }
      add(Kind.OP, start, null);
    }

    private void quotedName(int start) {
      String name = quoted('`', "quoted column name");
      if (name.isEmpty() || name.indexOf('.') >= 0) {
        throw error("bad quoted column name " + text.substring(start, pos) + " at position " + (start + 1) + " in: "
            + text, "A field name cannot be empty or contain '.'; write nested fields as `a`.`b`.");
      }
      add(Kind.QUOTED_NAME, start, name);
    }

    /** Reads text up to the closing {@code quote}; a doubled quote stands for one. */
    private String quoted(char quote, String what) {
      int start = pos;
      pos++;
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (pos >= text.length()) {
          throw error("unterminated " + what + " starting at position " + (start + 1) + " in: " + text,
              "Close it with " + quote + " (write " + quote + quote + " for a " + quote + " inside).");
        }
        char ch = text.charAt(pos++);
        if (ch == quote) {
          if (pos < text.length() && text.charAt(pos) == quote) {
            sb.append(quote);
            pos++;
          } else {
            return sb.toString();
          }
        } else {
          sb.append(ch);
        }
      }
    }

    private void add(Kind kind, int start, String value) {
      String raw = text.substring(start, pos);
      out.add(new Token(kind, raw, value == null ? raw : value, start));
    }

    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }
  }
}
