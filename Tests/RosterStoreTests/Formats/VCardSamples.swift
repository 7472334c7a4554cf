/// Cards in the shapes real programs write them, by hand.
enum VCardSamples {
    /// Apple Contacts / iCloud: 3.0, grouped properties with `X-ABLabel`
    /// (built-in labels wrapped as `_$!<…>!$_`, and a custom one), related
    /// names, a company card's `X-ABShowAs`.
    static let apple = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        PRODID:-//Apple Inc.//macOS 14.0//EN\r
        N:Appleseed;Johnny;;;\r
        FN:Johnny Appleseed\r
        ORG:Apple Inc.;\r
        TITLE:Orchardist\r
        item1.EMAIL;type=INTERNET;type=pref:johnny@apple.example\r
        item1.X-ABLabel:_$!<Work>!$_\r
        item2.EMAIL;type=INTERNET:jappleseed@me.example\r
        item2.X-ABLabel:Old school\r
        TEL;type=CELL;type=VOICE;type=pref:+1 (408) 555-0199\r
        item3.ADR;type=HOME;type=pref:;;1 Infinite Loop;Cupertino;CA;95014;United States\r
        item3.X-ABADR:us\r
        item4.X-ABRELATEDNAMES;type=pref:Tim Cook\r
        item4.X-ABLabel:_$!<Manager>!$_\r
        item5.URL;type=pref:http\\://www.apple.example\r
        item5.X-ABLabel:_$!<HomePage>!$_\r
        END:VCARD\r

        """

    /// Outlook's 2.1 export: bare parameters, quoted-printable with soft
    /// breaks in ISO-8859-1.
    static let outlook = """
        BEGIN:VCARD\r
        VERSION:2.1\r
        N;LANGUAGE=de;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:M=FCller;J=FCrgen\r
        FN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:J=FCrgen M=FCller\r
        ORG;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Gr=FCn GmbH;Verkauf\r
        TEL;WORK;VOICE:+49 30 1234567\r
        TEL;CELL:+49 170 1234567\r
        EMAIL;PREF;INTERNET:juergen@gruen.example\r
        NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Erste Zeile=0D=0AZweite Zeile, sehr lang und mit =\r
        Umlaut =E4=F6=FC am Ende\r
        ADR;WORK;ENCODING=QUOTED-PRINTABLE:;;Hauptstra=DFe 1;Berlin;;10115;Deutschland\r
        END:VCARD\r

        """
}
