/// Days since 1970-01-01 in the proleptic Gregorian calendar, both ways (H. Hinnant's
/// algorithms): the one conversion every module's dates go through.
public enum CivilDays {
    /// The days of years 0000 through 9999, the years every date text here reads and writes
    /// (`YYYY-MM-DD`, RFC 3339, the export's timestamps). An instant read back from a store
    /// is clamped to them before it meets integer arithmetic: an absurd stored instant (the
    /// end of a sample that lasted 1e300 hours) gives the nearest supported date, not a trap.
    public static let supportedDays = -719_528...2_932_896
    /// The whole seconds of ``supportedDays`` since 1970: 0000-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59Z.
    public static let supportedSeconds = -62_167_219_200.0...253_402_300_799.0

    /// Days from 1970-01-01 of a calendar date.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The days of `month` (1–12) in `year`: 28–31, February's by the Gregorian leap rule.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The calendar date `days` after 1970-01-01.
    public static func date(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
