#include "ui/report/pdfreport.h"

#include "ui/report/chartpainter.h"
#include "ui/report/report.h"

#include <QFontMetricsF>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>

#include <cmath>

namespace PdfReport {

namespace {

constexpr int kDpi = 300;

class Layout
{
public:
    using Progress = std::function<void(int done, int total)>;
    Layout(const ReportDocument& doc, QPdfWriter& writer, int totalPages, Progress progress = {})
        : m_doc(doc)
        , m_progress(std::move(progress))
        , m_writer(writer)
        , m_total(totalPages)
        , m_unit(kDpi / 72.0)
    {
        m_body = QFont(QStringLiteral("DejaVu Sans"));
        m_body.setPointSizeF(9);
        // No shaping: no "ﬀ" ligatures, so text copied or extracted from the PDF is the text of the record.
        m_body.setStyleStrategy(QFont::PreferNoShaping);
        m_mono = QFont(QStringLiteral("DejaVu Sans Mono"));
        m_mono.setPointSizeF(7.5);
        m_mono.setStyleStrategy(QFont::PreferNoShaping);
        m_area = QRectF(0, 0, writer.width(), writer.height());
        m_top = m_area.top() + 22 * m_unit;
        m_bottom = m_area.bottom() - 20 * m_unit;
    }

    int run(QPainter* painter)
    {
        m_p = painter;
        m_page = 1;
        m_y = m_top;
        decorate();
        title();
        for (qsizetype i = 0; i < m_doc.sections.size(); ++i) {
            const ReportSection& s = m_doc.sections.at(i);
            // The details start after the summary page; a run starts where a quarter of the page is left for it.
            if ((s.newPage && m_y > m_top + 1) || (!s.status.isEmpty() && m_y > m_top + (m_bottom - m_top) * 0.75))
                newPage();
            section(s);
        }
        if (m_p && m_progress)
            m_progress(m_page, m_total);
        return m_page;
    }

private:
    QFont font(double scale, bool bold = false) const
    {
        QFont f = m_body;
        f.setPointSizeF(m_body.pointSizeF() * scale);
        f.setBold(bold);
        return f;
    }
    QFontMetricsF metrics(const QFont& f) const { return QFontMetricsF(f, &m_writer); }
    double width() const { return m_area.width(); }

    void newPage()
    {
        if (m_p && m_progress)
            m_progress(m_page, m_total);
        if (m_p)
            m_writer.newPage();
        ++m_page;
        m_y = m_top;
        decorate();
    }
    void ensure(double h)
    {
        if (m_y + h > m_bottom && m_y > m_top + 1)
            newPage();
    }

    void decorate()
    {
        if (!m_p)
            return;
        const QFont f = font(0.85);
        const QFontMetricsF fm = metrics(f);
        m_p->setFont(f);
        m_p->setPen(QColor(0x55, 0x55, 0x55));
        const QRectF head(m_area.left(), m_area.top(), width(), fm.height());
        m_p->drawText(head, Qt::AlignLeft | Qt::AlignVCenter,
            m_doc.author.isEmpty() ? m_doc.title : QString(m_doc.title + u" · " + m_doc.author));
        m_p->drawText(head, Qt::AlignRight | Qt::AlignVCenter,
            QString(u"DirBench · " + m_doc.generated.toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
        m_p->setPen(QPen(QColor(0xbb, 0xbb, 0xbb), 0.6 * m_unit));
        m_p->drawLine(
            QPointF(m_area.left(), head.bottom() + 3 * m_unit), QPointF(m_area.right(), head.bottom() + 3 * m_unit));
        const QRectF foot(m_area.left(), m_area.bottom() - fm.height(), width(), fm.height());
        m_p->drawLine(
            QPointF(m_area.left(), foot.top() - 3 * m_unit), QPointF(m_area.right(), foot.top() - 3 * m_unit));
        m_p->setPen(QColor(0x55, 0x55, 0x55));
        m_p->drawText(foot, Qt::AlignRight | Qt::AlignVCenter,
            QStringLiteral("Page %1 of %2").arg(QString::number(m_page), QString::number(m_total)));
        m_p->drawText(foot, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("Numbers printed in full"));
    }

    // Wrapped text at x with width w; returns its height. Draws only when painting.
    double text(const QString& t, const QFont& f, double x, double w, int align = Qt::AlignLeft,
        const QColor& color = Qt::black, bool draw = true)
    {
        const QFontMetricsF fm = metrics(f);
        const QRectF r = fm.boundingRect(QRectF(x, m_y, w, 1e7), align | Qt::TextWordWrap, t);
        const double h = std::max(r.height(), fm.height());
        if (m_p && draw) {
            m_p->setFont(f);
            m_p->setPen(color);
            m_p->drawText(QRectF(x, m_y, w, h), align | Qt::TextWordWrap, t);
        }
        return h;
    }

    void title()
    {
        m_y += text(m_doc.title, font(2.2, true), m_area.left(), width());
        m_y += 4 * m_unit;
        const QString by = m_doc.author.isEmpty() ? QString() : QString(u"Prepared by " + m_doc.author + u" · ");
        m_y += text(QString(by + u"Directory-service performance report made by DirBench on "
                        + m_doc.generated.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss t"))),
            font(1.0), m_area.left(), width(), Qt::AlignLeft, QColor(0x44, 0x44, 0x44));
        m_y += 10 * m_unit;
    }

    void section(const ReportSection& s)
    {
        const QFont h = font(1.55, true);
        ensure(metrics(h).height() * 2 + 60 * m_unit);
        m_y += text(s.heading, h, m_area.left(), width(), Qt::AlignLeft, QColor(0x1f, 0x3f, 0x6f));
        if (m_p) {
            m_p->setPen(QPen(QColor(0x1f, 0x3f, 0x6f), 0.8 * m_unit));
            m_p->drawLine(QPointF(m_area.left(), m_y + 1.5 * m_unit), QPointF(m_area.right(), m_y + 1.5 * m_unit));
        }
        m_y += 6 * m_unit;
        for (qsizetype i = 0; i < s.blocks.size(); ++i)
            block(s.blocks.at(i), i + 1 < s.blocks.size() ? &s.blocks.at(i + 1) : nullptr);
        m_y += 8 * m_unit;
    }

    void block(const ReportBlock& b, const ReportBlock* next)
    {
        switch (b.kind) {
        case ReportBlock::Kind::Subheading: {
            const QFont f = font(1.12, true);
            // Keep a heading with the start of what follows it.
            double keep = metrics(f).height() + 40 * m_unit;
            if (next && next->kind == ReportBlock::Kind::Chart)
                keep += 200 * m_unit;
            else if (next && next->kind == ReportBlock::Kind::Table)
                keep += 40 * m_unit; // its header and first row
            ensure(keep);
            m_y += 4 * m_unit;
            m_y += text(b.text, f, m_area.left(), width()) + 3 * m_unit;
            break;
        }
        case ReportBlock::Kind::Paragraph: {
            const double h = text(b.text, m_body, m_area.left(), width(), Qt::AlignLeft, Qt::black, false);
            ensure(h);
            m_y += text(b.text, m_body, m_area.left(), width()) + 5 * m_unit;
            break;
        }
        case ReportBlock::Kind::Code:
            code(b.text);
            break;
        case ReportBlock::Kind::Table:
            table(b.table);
            break;
        case ReportBlock::Kind::Chart: {
            if (b.chart.isEmpty())
                break;
            const double h = ChartPainter::height(b.chart, width(), m_unit, m_body, &m_writer);
            ensure(h);
            if (m_p)
                ChartPainter::paint(*m_p, QRectF(m_area.left(), m_y, width(), h), b.chart, m_unit, m_body);
            m_y += h + 8 * m_unit;
            break;
        }
        case ReportBlock::Kind::Verdicts:
            for (qsizetype i = 0; i < b.verdicts.size(); ++i) {
                const Verdict& v = b.verdicts.at(i);
                const QString run = b.verdictRuns.value(i);
                const QString line = b.sentences
                    ? (run.isEmpty() ? QString() : QString(run + u": ")) + Report::verdictSentence(v)
                    : Report::verdictLine(v).mid(6);
                const QString badge = b.sentences ? (v.passed ? QStringLiteral("✓") : QStringLiteral("✗"))
                                                  : (v.passed ? QStringLiteral("PASS") : QStringLiteral("FAIL"));
                badgeLine(badge, v.passed ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28), line);
            }
            m_y += 4 * m_unit;
            break;
        case ReportBlock::Kind::Warnings:
            for (const RunWarning& w : b.warnings)
                badgeLine(QStringLiteral("WARN"), QColor(0xb2, 0x6a, 0x00), QString(w.message + u" [" + w.code + u']'));
            m_y += 4 * m_unit;
            break;
        }
    }

    void badgeLine(const QString& badge, const QColor& color, const QString& line)
    {
        const QFont bf = font(0.85, true);
        const double bw = metrics(bf).horizontalAdvance(QStringLiteral("WARN")) + 8 * m_unit;
        const double x = m_area.left() + bw + 6 * m_unit;
        const double h = text(line, m_body, x, width() - bw - 6 * m_unit, Qt::AlignLeft, Qt::black, false);
        ensure(h);
        if (m_p) {
            const QRectF r(m_area.left(), m_y, bw, metrics(m_body).height());
            m_p->fillRect(r, color);
            m_p->setFont(bf);
            m_p->setPen(Qt::white);
            m_p->drawText(r, Qt::AlignCenter, badge);
        }
        m_y += text(line, m_body, x, width() - bw - 6 * m_unit) + 4 * m_unit;
    }

    void code(const QString& t)
    {
        const QFontMetricsF fm = metrics(m_mono);
        const double pad = 4 * m_unit;
        for (const QString& line : t.split(u'\n')) {
            const double h = fm.boundingRect(QRectF(0, 0, width() - 2 * pad, 1e7), Qt::TextWrapAnywhere, line).height();
            ensure(std::max(h, fm.height()));
            const double lh = std::max(h, fm.height());
            if (m_p) {
                m_p->fillRect(QRectF(m_area.left(), m_y, width(), lh), QColor(0xf2, 0xf2, 0xf2));
                m_p->setFont(m_mono);
                m_p->setPen(Qt::black);
                m_p->drawText(QRectF(m_area.left() + pad, m_y, width() - 2 * pad, lh), Qt::TextWrapAnywhere, line);
            }
            m_y += lh;
        }
        m_y += 6 * m_unit;
    }

    static ReportTable project(const ReportTable& t, const QList<qsizetype>& columns)
    {
        ReportTable out;
        for (qsizetype c : columns)
            out.header << t.header.value(c);
        for (const QStringList& r : t.rows) {
            QStringList cells;
            for (qsizetype c : columns)
                cells << r.value(c);
            out.rows << cells;
        }
        return out;
    }

    static bool numeric(const QString& s)
    {
        static const QRegularExpression re(QStringLiteral("^[-+]?[0-9][0-9,]*(\\.[0-9]+)?( [^ ]{1,6})?$"));
        return re.match(s).hasMatch();
    }

    // The widest word of a cell: a column narrower than that would cut it (numbers never wrap).
    double widestWord(const QString& cell, const QFont& f) const
    {
        double w = 0;
        const QFontMetricsF fm = metrics(f);
        for (const QString& word : cell.split(u' ', Qt::SkipEmptyParts))
            w = std::max(w, fm.horizontalAdvance(word));
        return w;
    }

    // Each column at least as wide as its widest word (so no number or word is cut), the room left shared in
    // proportion to what each column would need to hold its cells on one line.
    QList<double> columnWidths(const ReportTable& t, const QFont& f, const QFont& hf, double pad) const
    {
        const qsizetype n = t.keyValue ? 2 : t.header.size();
        QList<double> natural(n, 0);
        QList<double> least(n, 0);
        for (qsizetype c = 0; c < n; ++c) {
            if (!t.keyValue) {
                natural[c] = metrics(hf).horizontalAdvance(t.header.at(c));
                least[c] = widestWord(t.header.at(c), hf);
            }
            for (const QStringList& row : t.rows) { // a key-value table's names are bold
                const QFont& cf = t.keyValue && c == 0 ? hf : f;
                natural[c] = std::max(natural[c], metrics(cf).horizontalAdvance(row.value(c)));
                least[c] = std::max(least[c], widestWord(row.value(c), cf));
            }
            natural[c] += 2 * pad + 1;
            least[c] += 2 * pad + 1;
        }
        if (t.keyValue) {
            const double first = std::max(std::min(natural[0], width() * 0.4), std::min(least[0], width() * 0.5));
            return { first, width() - first };
        }
        double sumNatural = 0, sumLeast = 0;
        for (qsizetype c = 0; c < n; ++c) {
            sumNatural += natural[c];
            sumLeast += least[c];
        }
        if (sumNatural <= width())
            return natural;
        const double room = std::max(0.0, width() - sumLeast);
        QList<double> out;
        for (qsizetype c = 0; c < n; ++c)
            out << least[c] + (sumNatural > sumLeast ? (natural[c] - least[c]) * room / (sumNatural - sumLeast) : 0);
        return out;
    }

    // The least width of each column (its widest word); a table whose columns do not fit side by side is split.
    QList<double> leastWidths(const ReportTable& t, const QFont& f, const QFont& hf, double pad) const
    {
        QList<double> least;
        for (qsizetype c = 0; c < t.header.size(); ++c) {
            double w = widestWord(t.header.at(c), hf);
            for (const QStringList& row : t.rows)
                w = std::max(w, widestWord(row.value(c), f));
            least << w + 2 * pad + 1;
        }
        return least;
    }

    // Groups of columns that fit the page side by side, each starting with the first column (what a row is).
    QList<QList<qsizetype>> columnGroups(const QList<double>& least) const
    {
        QList<QList<qsizetype>> groups;
        QList<qsizetype> current { 0 };
        double used = least.value(0);
        for (qsizetype c = 1; c < least.size(); ++c) {
            if (used + least[c] > width() && current.size() > 1) {
                groups << current;
                current = { 0 };
                used = least[0];
            }
            current << c;
            used += least[c];
        }
        groups << current;
        return groups;
    }

    // Qt::TextWordWrap, or wrap anywhere for a text (a long address) wider than its column: cut nothing.
    int wrapFor(const QString& cell, const QFont& f, double w) const
    {
        return widestWord(cell, f) > w ? Qt::TextWrapAnywhere : Qt::TextWordWrap;
    }

    double rowHeight(const QStringList& cells, const QList<double>& widths, const QFont& f, double pad) const
    {
        double h = metrics(f).height();
        for (qsizetype c = 0; c < widths.size(); ++c) {
            const double w = widths[c] - 2 * pad;
            h = std::max(h,
                metrics(f).boundingRect(QRectF(0, 0, w, 1e7), wrapFor(cells.value(c), f, w), cells.value(c)).height());
        }
        return h + 2 * pad;
    }

    void row(const QStringList& cells, const QList<double>& widths, const QFont& f, double pad, double h,
        const QColor& fill, bool header, bool keyValue, const QList<bool>& rightAligned = {})
    {
        if (!m_p)
            return;
        m_p->fillRect(QRectF(m_area.left(), m_y, width(), h), fill);
        m_p->setPen(QPen(QColor(0xcc, 0xcc, 0xcc), 0.5 * m_unit));
        m_p->drawLine(QPointF(m_area.left(), m_y + h), QPointF(m_area.right(), m_y + h));
        double x = m_area.left();
        for (qsizetype c = 0; c < widths.size(); ++c) {
            const QString cell = cells.value(c);
            const int align
                = !keyValue && rightAligned.value(c) && (header || numeric(cell)) ? Qt::AlignRight : Qt::AlignLeft;
            QFont cf = f;
            cf.setBold(header || (keyValue && c == 0));
            m_p->setFont(cf);
            m_p->setPen(Qt::black);
            const double w = widths[c] - 2 * pad;
            m_p->drawText(QRectF(x + pad, m_y + pad, w, h - 2 * pad), align | wrapFor(cell, cf, w), cell);
            x += widths[c];
        }
    }

    void table(const ReportTable& t)
    {
        if (t.rows.isEmpty())
            return;
        const QFont f = font(t.keyValue ? 0.95 : 0.9);
        QFont hf = f;
        hf.setBold(true);
        const double pad = 2.5 * m_unit;
        if (!t.keyValue && t.header.size() > 2) {
            const QList<QList<qsizetype>> groups = columnGroups(leastWidths(t, f, hf, pad));
            if (groups.size() > 1) {
                for (const QList<qsizetype>& g : groups)
                    table(project(t, g));
                return;
            }
        }
        const QList<double> widths = columnWidths(t, f, hf, pad);
        QList<bool> right(widths.size(), true); // columns of numbers only are right-aligned, with their header
        for (qsizetype c = 0; c < widths.size(); ++c)
            for (const QStringList& r : t.rows)
                right[c] = right[c] && (r.value(c).isEmpty() || numeric(r.value(c)));
        const double hh = t.keyValue ? 0 : rowHeight(t.header, widths, hf, pad);
        auto header = [&] {
            if (t.keyValue)
                return;
            row(t.header, widths, hf, pad, hh, QColor(0xe3, 0xea, 0xf3), true, false, right);
            m_y += hh;
        };
        ensure(hh + rowHeight(t.rows.first(), widths, f, pad));
        header();
        for (qsizetype i = 0; i < t.rows.size(); ++i) {
            const double h = rowHeight(t.rows.at(i), widths, f, pad);
            if (m_y + h > m_bottom) {
                newPage();
                header();
            }
            row(t.rows.at(i), widths, f, pad, h, i % 2 ? QColor(0xf7, 0xf7, 0xf7) : QColor(Qt::white), false,
                t.keyValue, right);
            m_y += h;
        }
        m_y += 8 * m_unit;
    }

    const ReportDocument& m_doc;
    Progress m_progress;
    QPdfWriter& m_writer;
    int m_total;
    double m_unit;
    QFont m_body;
    QFont m_mono;
    QRectF m_area;
    double m_top = 0;
    double m_bottom = 0;
    double m_y = 0;
    int m_page = 1;
    QPainter* m_p = nullptr;
};

} // namespace

bool write(
    const ReportDocument& doc, QIODevice* out, QString* error, const std::function<void(int done, int total)>& progress)
{
    QPdfWriter writer(out);
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(
        QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(16, 12, 16, 12), QPageLayout::Millimeter));
    writer.setTitle(doc.title);
    writer.setCreator(QStringLiteral("DirBench " DIRBENCH_VERSION));
    const int pages = Layout(doc, writer, 0).run(nullptr);
    QPainter painter;
    if (!painter.begin(&writer)) {
        if (error)
            *error = QStringLiteral("cannot start painting the PDF");
        return false;
    }
    Layout(doc, writer, pages, progress).run(&painter);
    painter.end();
    return true;
}

} // namespace PdfReport
