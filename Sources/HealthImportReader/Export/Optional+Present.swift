extension Optional {
    /// `self != nil` without a copy: the record being read is checked at every element, and
    /// `!= nil` copied it (a retain of every field) to compare it.
    var isPresent: Bool {
        if case .some = self { true } else { false }
    }
}
